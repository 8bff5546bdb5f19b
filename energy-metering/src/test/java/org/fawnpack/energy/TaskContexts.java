package org.fawnpack.energy;

import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.StatusReporter;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;

/** Real Hadoop task contexts whose counters land in a real {@link Counters}. */
final class TaskContexts {
  static final JobID JOB = new JobID("1700000000000", 42);
  private static final AtomicInteger CONTAINERS = new AtomicInteger();

  private TaskContexts() {
  }

  static TaskAttemptID attempt(TaskType type, int task, int attempt) {
    return new TaskAttemptID(new TaskID(JOB, type, task), attempt);
  }

  /**
   * A container id no other test in this JVM uses: TaskEnergyReporter remembers per JVM what each
   * container already reported.
   */
  static String newContainerId() {
    return String.format("container_1700000000000_0042_01_%06d", CONTAINERS.incrementAndGet());
  }

  /** A task context like the one Task gives the committer, its counters in {@code reporter}. */
  static TaskAttemptContextImpl context(Configuration conf, TaskAttemptID id,
      CountersReporter reporter) {
    return new TaskAttemptContextImpl(conf, id, reporter);
  }

  static long value(Counters counters, Enum<?> counter) {
    Counter found = counters.getGroup(counter.getDeclaringClass().getName())
        .findCounter(counter.name(), false);
    return found == null ? 0 : found.getValue();
  }

  /** A StatusReporter backed by real mapreduce Counters (as Task's reporter is by its own). */
  static final class CountersReporter extends StatusReporter {
    final Counters counters = new Counters();

    @Override
    public Counter getCounter(Enum<?> name) {
      return counters.findCounter(name);
    }

    @Override
    public Counter getCounter(String group, String name) {
      return counters.findCounter(group, name);
    }

    @Override
    public void progress() {
    }

    @Override
    public float getProgress() {
      return 0;
    }

    @Override
    public void setStatus(String status) {
    }
  }
}

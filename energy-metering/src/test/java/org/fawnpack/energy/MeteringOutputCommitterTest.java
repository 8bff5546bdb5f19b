package org.fawnpack.energy;

import static org.fawnpack.energy.EnergyCounter.ENERGY_MILLIJOULES;
import static org.fawnpack.energy.EnergyCounter.TASKS_METERED;
import static org.fawnpack.energy.EnergyCounter.TASKS_UNMETERED;
import static org.fawnpack.energy.TaskContexts.value;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.lib.output.FileOutputCommitter;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.PathOutputCommitter;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.hadoop.mapreduce.task.JobContextImpl;
import org.apache.hadoop.mapreduce.task.MapContextImpl;
import org.fawnpack.energy.TaskContexts.CountersReporter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MeteringOutputCommitterTest {
  private static final String COLLECTOR_ANSWER =
      "OK energy_uj=7500000 idle_uj=2500000 samples=15 gaps=0 estimated=false";

  @TempDir
  Path tmp;

  /** Records every call with its argument, answers with non-default values. */
  static final class RecordingCommitter extends OutputCommitter {
    final List<String> calls = new ArrayList<>();
    final List<Object> arguments = new ArrayList<>();
    boolean needsCommit = true;
    IOException failCommitTask;

    private void record(String call, Object argument) {
      calls.add(call);
      arguments.add(argument);
    }

    @Override
    public void setupJob(JobContext context) {
      record("setupJob", context);
    }

    @Override
    @Deprecated
    public void cleanupJob(JobContext context) {
      record("cleanupJob", context);
    }

    @Override
    public void commitJob(JobContext context) {
      record("commitJob", context);
    }

    @Override
    public void abortJob(JobContext context, JobStatus.State state) {
      record("abortJob " + state, context);
    }

    @Override
    public void setupTask(TaskAttemptContext context) {
      record("setupTask", context);
    }

    @Override
    public boolean needsTaskCommit(TaskAttemptContext context) {
      record("needsTaskCommit", context);
      return needsCommit;
    }

    @Override
    public void commitTask(TaskAttemptContext context) throws IOException {
      record("commitTask", context);
      if (failCommitTask != null) {
        throw failCommitTask;
      }
    }

    @Override
    public void abortTask(TaskAttemptContext context) {
      record("abortTask", context);
    }

    @Override
    @Deprecated
    public boolean isRecoverySupported() {
      record("isRecoverySupported", null);
      return true;
    }

    @Override
    public boolean isRecoverySupported(JobContext context) {
      record("isRecoverySupported(JobContext)", context);
      return true;
    }

    @Override
    public boolean isCommitJobRepeatable(JobContext context) {
      record("isCommitJobRepeatable", context);
      return true;
    }

    @Override
    public void recoverTask(TaskAttemptContext context) {
      record("recoverTask", context);
    }
  }

  private Configuration conf() {
    Configuration conf = OutputRuns.conf(tmp.resolve("out"));
    conf.setInt(TaskEnergyReporter.CLIENT_TIMEOUT_KEY, 300);
    return conf;
  }

  @Test
  void commitTask_metered_writesWhatBareCommitterWrites() throws Exception {
    TaskAttemptID id = TaskContexts.attempt(TaskType.MAP, 3, 0);
    Path bareOut = tmp.resolve("bare");
    TextOutputFormat<Text, Text> bare = new TextOutputFormat<>();
    OutputRuns.run(TaskContexts.context(OutputRuns.conf(bareOut), id, new CountersReporter()),
        bare::getRecordWriter, bare::getOutputCommitter);

    Path meteredOut = tmp.resolve("metered");
    CountersReporter reporter = new CountersReporter();
    TextOutputFormat<Text, Text> real = new TextOutputFormat<>();
    try (FakeCollector collector = new FakeCollector(COLLECTOR_ANSWER)) {
      Map<String, String> environment = collector.environment(TaskContexts.newContainerId());
      boolean committed = OutputRuns.run(
          TaskContexts.context(OutputRuns.conf(meteredOut), id, reporter),
          real::getRecordWriter,
          task -> new MeteringOutputCommitter(real.getOutputCommitter(task), task, environment));
      assertTrue(committed, "FileOutputCommitter has a file to commit");
      assertEquals(1, collector.requests().size());
    }

    SortedMap<String, byte[]> expected = OutputRuns.files(bareOut);
    SortedMap<String, byte[]> actual = OutputRuns.files(meteredOut);
    assertArrayEquals(OutputRuns.EXPECTED_TEXT.getBytes(StandardCharsets.UTF_8),
        expected.get("part-m-00003"));
    assertEquals(expected.keySet(), actual.keySet());
    assertTrue(actual.containsKey("_SUCCESS"), actual.keySet().toString());
    expected.forEach((name, bytes) -> assertArrayEquals(bytes, actual.get(name), name));

    assertEquals(7500, value(reporter.counters, ENERGY_MILLIJOULES));
    assertEquals(1, value(reporter.counters, TASKS_METERED));
  }

  @Test
  void paths_areDelegates() throws Exception {
    Configuration conf = conf();
    TaskAttemptID id = TaskContexts.attempt(TaskType.REDUCE, 0, 1);
    CountersReporter reporter = new CountersReporter();
    TaskAttemptContext task = TaskContexts.context(conf, id, reporter);
    FileOutputCommitter real = new FileOutputCommitter(
        new org.apache.hadoop.fs.Path(tmp.resolve("out").toUri()), task);
    MeteringOutputCommitter metering = new MeteringOutputCommitter(real, task, Map.of());

    assertEquals(real.getWorkPath(), metering.getWorkPath());
    assertTrue(metering.getWorkPath().toString().contains(id.toString()), "per-attempt work path");
    assertEquals(real.getOutputPath(), metering.getOutputPath());
    assertEquals(new org.apache.hadoop.fs.Path(tmp.resolve("out").toUri()),
        metering.getOutputPath());
    assertTrue(metering.hasOutputPath());
    assertSame(real, metering.delegate());

    // What FileOutputFormat.getWorkOutputPath (and MultipleOutputs) do with a task's committer.
    MapContextImpl<Text, Text, Text, Text> mapContext =
        new MapContextImpl<>(conf, id, null, null, metering, reporter, null);
    assertEquals(real.getWorkPath(), FileOutputFormat.getWorkOutputPath(mapContext));
  }

  @Test
  void wrapper_everyOutputCommitterMethod_overridden() {
    List<String> inherited = new ArrayList<>();
    for (Class<?> type : List.of(OutputCommitter.class, PathOutputCommitter.class)) {
      for (Method method : type.getDeclaredMethods()) {
        int modifiers = method.getModifiers();
        if (!Modifier.isPublic(modifiers) || Modifier.isStatic(modifiers)
            || Modifier.isFinal(modifiers) || method.getName().equals("toString")
            || method.getName().equals("hasOutputPath")) {
          continue;
        }
        try {
          MeteringOutputCommitter.class.getDeclaredMethod(method.getName(),
              method.getParameterTypes());
        } catch (NoSuchMethodException e) {
          inherited.add(method.toString());
        }
      }
    }
    assertEquals(List.of(), inherited, "not delegated");
  }

  @Test
  @SuppressWarnings("deprecation")
  void wrapper_everyCall_delegatedWithItsContext() throws IOException {
    Configuration conf = conf();
    RecordingCommitter recording = new RecordingCommitter();
    TaskAttemptContext task = TaskContexts.context(conf,
        TaskContexts.attempt(TaskType.MAP, 0, 0), new CountersReporter());
    JobContext job = new JobContextImpl(conf, TaskContexts.JOB);
    MeteringOutputCommitter metering = new MeteringOutputCommitter(recording, job, Map.of());

    metering.setupJob(job);
    metering.setupTask(task);
    assertTrue(metering.needsTaskCommit(task));
    recording.needsCommit = false;
    assertFalse(metering.needsTaskCommit(task));
    metering.commitTask(task);
    metering.abortTask(task);
    metering.recoverTask(task);
    assertTrue(metering.isRecoverySupported());
    assertTrue(metering.isRecoverySupported(job));
    assertTrue(metering.isCommitJobRepeatable(job));
    metering.commitJob(job);
    metering.abortJob(job, JobStatus.State.KILLED);
    metering.cleanupJob(job);

    assertEquals(List.of("setupJob", "setupTask", "needsTaskCommit", "needsTaskCommit",
        "commitTask", "abortTask", "recoverTask", "isRecoverySupported",
        "isRecoverySupported(JobContext)", "isCommitJobRepeatable", "commitJob",
        "abortJob KILLED", "cleanupJob"), recording.calls);
    assertEquals(List.of(job, task, task, task, task, task, task, job, job, job, job, job),
        recording.arguments.stream().filter(a -> a != null).toList());

    IOException failure = new IOException("rename failed");
    recording.failCommitTask = failure;
    assertSame(failure, assertThrows(IOException.class, () -> metering.commitTask(task)));
    assertTrue(metering.toString().contains(recording.toString()), metering.toString());
  }

  @Test
  void needsTaskCommit_metersOncePerAttempt() throws IOException {
    for (TaskType type : List.of(TaskType.MAP, TaskType.REDUCE)) {
      RecordingCommitter recording = new RecordingCommitter();
      CountersReporter reporter = new CountersReporter();
      TaskAttemptContext task = TaskContexts.context(conf(), TaskContexts.attempt(type, 0, 0),
          reporter);
      try (FakeCollector collector = new FakeCollector(COLLECTOR_ANSWER)) {
        MeteringOutputCommitter metering = new MeteringOutputCommitter(recording, task,
            collector.environment(TaskContexts.newContainerId()));
        assertTrue(metering.needsTaskCommit(task));
        assertTrue(metering.needsTaskCommit(task));

        assertEquals(1, collector.requests().size(), type.toString());
        assertEquals(List.of("needsTaskCommit", "needsTaskCommit"), recording.calls);
        assertEquals(7500, value(reporter.counters, ENERGY_MILLIJOULES), type.toString());
        assertEquals(1, value(reporter.counters, TASKS_METERED), type.toString());
      }
    }
  }

  @Test
  void needsTaskCommit_setupAndCleanupAttempts_notMetered() throws IOException {
    for (TaskType type : List.of(TaskType.JOB_SETUP, TaskType.JOB_CLEANUP,
        TaskType.TASK_CLEANUP)) {
      RecordingCommitter recording = new RecordingCommitter();
      CountersReporter reporter = new CountersReporter();
      TaskAttemptContext task = TaskContexts.context(conf(), TaskContexts.attempt(type, 0, 0),
          reporter);
      try (FakeCollector collector = new FakeCollector(COLLECTOR_ANSWER)) {
        MeteringOutputCommitter metering = new MeteringOutputCommitter(recording, task,
            collector.environment(TaskContexts.newContainerId()));
        assertTrue(metering.needsTaskCommit(task));

        assertEquals(List.of(), collector.requests(), type.toString());
        assertEquals(List.of("needsTaskCommit"), recording.calls);
        assertEquals(0, value(reporter.counters, TASKS_METERED), type.toString());
        assertEquals(0, value(reporter.counters, TASKS_UNMETERED), type.toString());
      }
    }
  }

  @Test
  void needsTaskCommit_queryFails_commitStillSucceeds() throws IOException {
    RecordingCommitter recording = new RecordingCommitter();
    CountersReporter reporter = new CountersReporter();
    TaskAttemptContext task = TaskContexts.context(conf(),
        TaskContexts.attempt(TaskType.MAP, 0, 0), reporter);
    try (FakeCollector collector = new FakeCollector(FakeCollector.SILENT)) {
      MeteringOutputCommitter metering = new MeteringOutputCommitter(recording, task,
          collector.environment(TaskContexts.newContainerId()));
      assertTrue(metering.needsTaskCommit(task));
    }
    assertEquals(1, value(reporter.counters, TASKS_UNMETERED));
    assertEquals(List.of("needsTaskCommit"), recording.calls);
  }

  @Test
  void workPath_delegateWritesNoFiles_none() throws IOException {
    Configuration conf = conf();
    TaskAttemptID id = TaskContexts.attempt(TaskType.MAP, 0, 0);
    CountersReporter reporter = new CountersReporter();
    MeteringOutputCommitter metering = new MeteringOutputCommitter(new RecordingCommitter(),
        TaskContexts.context(conf, id, reporter), Map.of());

    IOException e = assertThrows(IOException.class, metering::getWorkPath);
    assertTrue(e.getMessage().contains(RecordingCommitter.class.getName()), e.getMessage());
    assertNull(metering.getOutputPath());
    assertFalse(metering.hasOutputPath());

    MapContextImpl<Text, Text, Text, Text> mapContext =
        new MapContextImpl<>(conf, id, null, null, metering, reporter, null);
    IOException viaFormat = assertThrows(IOException.class,
        () -> FileOutputFormat.getWorkOutputPath(mapContext));
    assertNotNull(viaFormat.getMessage());
    assertTrue(viaFormat.getMessage().contains(RecordingCommitter.class.getName()));
  }
}

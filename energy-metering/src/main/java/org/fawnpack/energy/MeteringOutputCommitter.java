package org.fawnpack.energy;

import java.io.IOException;
import java.util.Map;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.lib.output.PathOutputCommitter;

/**
 * Wraps the job's real committer to meter each task at its very end. {@code Task.done()} calls
 * {@link #needsTaskCommit} in the task JVM once, after the map output is spilled and merged (or the
 * reduce has written everything) and before its final counter update: the last point where a
 * counter still reaches the job, for map-only jobs, maps and reduces alike. Everything else is
 * delegated. It extends PathOutputCommitter so code that casts the task's committer to one
 * (FileOutputFormat.getWorkOutputPath, MultipleOutputs) keeps working.
 */
public class MeteringOutputCommitter extends PathOutputCommitter {
  private final OutputCommitter delegate;
  private final TaskEnergyReporter reporter;
  private volatile String reportedAttempt;

  public MeteringOutputCommitter(OutputCommitter delegate, JobContext context) throws IOException {
    this(delegate, context, System.getenv());
  }

  MeteringOutputCommitter(OutputCommitter delegate, JobContext context,
      Map<String, String> environment) throws IOException {
    super(outputPathOf(delegate), context);
    this.delegate = delegate;
    this.reporter = new TaskEnergyReporter(environment);
  }

  private static Path outputPathOf(OutputCommitter committer) {
    return committer instanceof PathOutputCommitter path ? path.getOutputPath() : null;
  }

  public OutputCommitter delegate() {
    return delegate;
  }

  @Override
  public boolean needsTaskCommit(TaskAttemptContext context) throws IOException {
    meterOnce(context);
    return delegate.needsTaskCommit(context);
  }

  private void meterOnce(TaskAttemptContext context) {
    TaskType type = context.getTaskAttemptID().getTaskType();
    String attempt = context.getTaskAttemptID().toString();
    if ((type == TaskType.MAP || type == TaskType.REDUCE) && !attempt.equals(reportedAttempt)) {
      reportedAttempt = attempt;
      reporter.report(context);
    }
  }

  @Override
  public Path getOutputPath() {
    return outputPathOf(delegate);
  }

  @Override
  public Path getWorkPath() throws IOException {
    if (delegate instanceof PathOutputCommitter path) {
      return path.getWorkPath();
    }
    throw new IOException(delegate.getClass().getName() + " writes no files: it has no work path");
  }

  @Override
  public void setupJob(JobContext context) throws IOException {
    delegate.setupJob(context);
  }

  @Override
  @Deprecated
  public void cleanupJob(JobContext context) throws IOException {
    delegate.cleanupJob(context);
  }

  @Override
  public void commitJob(JobContext context) throws IOException {
    delegate.commitJob(context);
  }

  @Override
  public void abortJob(JobContext context, JobStatus.State state) throws IOException {
    delegate.abortJob(context, state);
  }

  @Override
  public void setupTask(TaskAttemptContext context) throws IOException {
    delegate.setupTask(context);
  }

  @Override
  public void commitTask(TaskAttemptContext context) throws IOException {
    delegate.commitTask(context);
  }

  @Override
  public void abortTask(TaskAttemptContext context) throws IOException {
    delegate.abortTask(context);
  }

  @Override
  @Deprecated
  public boolean isRecoverySupported() {
    return delegate.isRecoverySupported();
  }

  @Override
  public boolean isRecoverySupported(JobContext context) throws IOException {
    return delegate.isRecoverySupported(context);
  }

  @Override
  public boolean isCommitJobRepeatable(JobContext context) throws IOException {
    return delegate.isCommitJobRepeatable(context);
  }

  @Override
  public void recoverTask(TaskAttemptContext context) throws IOException {
    delegate.recoverTask(context);
  }

  @Override
  public String toString() {
    return "MeteringOutputCommitter{" + delegate + "}";
  }
}

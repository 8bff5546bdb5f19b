package org.fawnpack.kv.hadoop;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.task.JobContextImpl;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.fawnpack.kv.loopback.LoopbackCluster;

/** The contexts the MapReduce framework makes, for tests that drive a committer by hand. */
final class FrameworkSteps {
  private FrameworkSteps() {}

  /** A client configuration naming {@code cluster}, staging under {@code staging}. */
  static Configuration conf(LoopbackCluster cluster, Path staging) {
    Configuration conf = new Configuration();
    conf.set("fs.defaultFS", "file:///");
    conf.set("fawn.kv.zookeeper.quorum", cluster.zooKeeperQuorum());
    conf.set("fawn.kv.secret-file", cluster.secretFile().toString());
    conf.set(KvOutputKeys.STAGING_DIR.name(), staging.toString());
    return conf;
  }

  /** The job's context as the application master has it: its configuration and credentials. */
  static JobContext jobContext(Job job, JobID id) {
    JobContextImpl ctx = new JobContextImpl(new JobConf(job.getConfiguration()), id);
    ctx.getCredentials().addAll(job.getCredentials());
    return ctx;
  }

  /** A task attempt's context, with the job's credentials as a task holds them. */
  static TaskAttemptContext attempt(JobContext job, TaskType type, int task, int attempt) {
    JobConf conf = new JobConf(job.getConfiguration());
    conf.getCredentials().addAll(job.getCredentials());
    return new TaskAttemptContextImpl(conf, new TaskAttemptID(job.getJobID().getJtIdentifier(),
        job.getJobID().getId(), type, task, attempt));
  }

  /** Sets up {@code attempt} and writes {@code records} through its record writer. */
  static OutputCommitter write(FileOutputFormat<BytesWritable, BytesWritable> format,
      TaskAttemptContext attempt, Map<String, String> records) throws Exception {
    OutputCommitter committer = format.getOutputCommitter(attempt);
    committer.setupTask(attempt);
    RecordWriter<BytesWritable, BytesWritable> writer = format.getRecordWriter(attempt);
    for (Map.Entry<String, String> e : records.entrySet()) {
      writer.write(new BytesWritable(bytes(e.getKey())), new BytesWritable(bytes(e.getValue())));
    }
    writer.close(attempt);
    return committer;
  }

  static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}

package org.fawnpack.kv.hadoop;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.OutputFormat;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.fawnpack.kv.client.FawnKvClient;
import org.fawnpack.kv.config.KvKeys;

/**
 * A job's output written into FAWN-KV as batched puts through the cluster's front-ends (found
 * in ZooKeeper): each task sends {@code fawn.kv.output.batch-records} puts at once and waits for
 * them. At-least-once: a put is visible once acknowledged, not at job commit, so a task attempt
 * that fails after some batches leaves them in place, and its retry puts them again (the same
 * values, so the store ends as if written once, unless another writer changed those keys in
 * between); a killed job leaves what it had put. A batch the cluster refuses fails the task.
 */
public class FawnKvPutOutputFormat extends OutputFormat<BytesWritable, BytesWritable> {

  /** Makes {@code job} write into FAWN-KV, its tasks proving the secret in its credentials. */
  public static void setUp(Job job) throws IOException {
    job.setOutputFormatClass(FawnKvPutOutputFormat.class);
    job.setOutputKeyClass(BytesWritable.class);
    job.setOutputValueClass(BytesWritable.class);
    KvClusterAccess.addSecret(job.getConfiguration(), job.getCredentials());
  }

  @Override
  public RecordWriter<BytesWritable, BytesWritable> getRecordWriter(TaskAttemptContext context)
      throws IOException {
    Configuration conf = context.getConfiguration();
    KvClusterAccess cluster = KvClusterAccess.open(conf, context.getCredentials());
    try {
      FawnKvClient client = cluster.client(conf);
      return new BatchedPuts(cluster, client, KvInputKeys.read(KvOutputKeys.BATCH_RECORDS, conf),
          context.getCounter(FawnKvOutputCounter.RECORDS_PUT),
          context.getCounter(FawnKvOutputCounter.BYTES_PUT));
    } catch (IOException | RuntimeException e) {
      cluster.close();
      throw e;
    }
  }

  @Override
  public void checkOutputSpecs(JobContext context) throws IOException {
    if (context.getConfiguration().get(KvKeys.ZOOKEEPER_QUORUM.name()) == null) {
      throw new IOException("FAWN-KV output needs " + KvKeys.ZOOKEEPER_QUORUM.name());
    }
    KvClusterAccess.addSecret(context.getConfiguration(), context.getCredentials());
  }

  /** Puts are visible when acknowledged: nothing to commit or clean up. */
  @Override
  public OutputCommitter getOutputCommitter(TaskAttemptContext context) {
    return new OutputCommitter() {
      @Override
      public void setupJob(JobContext job) {}

      @Override
      public void setupTask(TaskAttemptContext task) {}

      @Override
      public boolean needsTaskCommit(TaskAttemptContext task) {
        return false;
      }

      @Override
      public void commitTask(TaskAttemptContext task) {}

      @Override
      public void abortTask(TaskAttemptContext task) {}
    };
  }

  /** Buffers puts and sends them a batch at a time. */
  private static final class BatchedPuts extends RecordWriter<BytesWritable, BytesWritable> {
    private final KvClusterAccess cluster;
    private final FawnKvClient client;
    private final int batch;
    private final Counter records;
    private final Counter bytes;
    private final List<byte[]> keys = new ArrayList<>();
    private final List<byte[]> values = new ArrayList<>();
    private long pendingBytes;

    BatchedPuts(KvClusterAccess cluster, FawnKvClient client, int batch, Counter records,
        Counter bytes) {
      this.cluster = cluster;
      this.client = client;
      this.batch = batch;
      this.records = records;
      this.bytes = bytes;
    }

    @Override
    public void write(BytesWritable key, BytesWritable value) throws IOException {
      keys.add(key.copyBytes());
      values.add(value.copyBytes());
      pendingBytes += key.getLength() + (long) value.getLength();
      if (keys.size() >= batch) {
        flush();
      }
    }

    private void flush() throws IOException {
      if (keys.isEmpty()) {
        return;
      }
      client.putAll(keys, values);
      records.increment(keys.size());
      bytes.increment(pendingBytes);
      keys.clear();
      values.clear();
      pendingBytes = 0;
    }

    @Override
    public void close(TaskAttemptContext context) throws IOException {
      try {
        flush();
      } finally {
        try {
          client.close();
        } finally {
          cluster.close();
        }
      }
    }
  }
}

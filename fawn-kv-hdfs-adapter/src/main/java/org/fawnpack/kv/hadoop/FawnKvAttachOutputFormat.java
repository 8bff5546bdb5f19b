package org.fawnpack.kv.hadoop;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.output.FileOutputCommitter;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.fawnpack.kv.bulk.ArcFileWriter;
import org.fawnpack.kv.config.KvKeys;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.store.KeyRange;

/**
 * A bulk load by attached files: one reduce per arc of the ring read at submission
 * ({@link AttachPlan}, {@link ArcPartitioner}) writes its arc's records as a FAWN-DS file
 * ({@code ArcFileWriter}, built on the task's local disk, then copied into the attempt's
 * directory on the job's file system with its length, CRC32C and record count); Hadoop's file
 * committer (algorithm 1) promotes one attempt's file per reduce, and the job commit
 * ({@link AttachCommitter}) hands the files to {@code BulkAttach}: staged on every chain
 * member, committed in ZooKeeper, visible on every arc at once. A failed or killed attempt or
 * job, or a commit that fails before its commit point, leaves nothing visible; the tasks that
 * build the files are metered like any task.
 */
public class FawnKvAttachOutputFormat extends FileOutputFormat<BytesWritable, BytesWritable> {
  /** A promoted file of arc {@code i}: {@code arc-<end>.fds}, with {@code .meta} beside it. */
  static final String FILE_PREFIX = "arc-";
  static final String META_SUFFIX = ".meta";
  /** The engine index's first size in a reduce; it grows as keys come. */
  private static final long FIRST_INDEX_KEYS = 1 << 16;

  /**
   * Makes {@code job} a bulk load by attached files into the cluster its configuration
   * names: reads the ring now, one reduce per arc, the partitioner, the staging directory
   * under {@code fawn.kv.output.staging-dir}, the secret and the ring key in its credentials.
   */
  public static void setUp(Job job) throws IOException {
    Configuration conf = job.getConfiguration();
    KvClusterAccess.addSecret(conf, job.getCredentials());
    try (KvClusterAccess cluster = KvClusterAccess.open(conf, job.getCredentials())) {
      var hash = cluster.rings().ringHash();
      Ring ring = cluster.rings().read(hash).orElseThrow(() -> new IOException(
          "the FAWN-KV cluster has no ring yet (no epoch in ZooKeeper)")).ring();
      AttachPlan plan = AttachPlan.record(ring, hash, conf, job.getCredentials());
      job.setNumReduceTasks(plan.arcs().size());
    }
    job.setPartitionerClass(ArcPartitioner.class);
    job.setMapOutputKeyClass(BytesWritable.class);
    job.setMapOutputValueClass(BytesWritable.class);
    job.setOutputFormatClass(FawnKvAttachOutputFormat.class);
    job.setOutputKeyClass(BytesWritable.class);
    job.setOutputValueClass(BytesWritable.class);
    conf.setInt(FileOutputCommitter.FILEOUTPUTCOMMITTER_ALGORITHM_VERSION, 1);
    conf.setBoolean(FileOutputCommitter.SUCCESSFUL_JOB_OUTPUT_DIR_MARKER, false);
    FileOutputFormat.setOutputPath(job, new Path(FawnKvOutputFormat.stagingRoot(conf),
        "attach-" + UUID.randomUUID()));
  }

  @Override
  public RecordWriter<BytesWritable, BytesWritable> getRecordWriter(TaskAttemptContext context)
      throws IOException {
    AttachPlan plan = AttachPlan.read(context.getConfiguration(), context.getCredentials());
    int arc = context.getTaskAttemptID().getTaskID().getId();
    if (arc >= plan.arcs().size()) {
      throw new IOException("reduce " + arc + " of a bulk load by attached files, whose plan"
          + " has " + plan.arcs().size() + " arcs");
    }
    KeyRange range = plan.arcs().get(arc);
    java.nio.file.Path local = Files.createTempDirectory("fawn-kv-arc-");
    java.nio.file.Path file = local.resolve("arc.fds");
    ArcFileWriter writer = new ArcFileWriter(plan.hash(), range, file, FIRST_INDEX_KEYS);
    var records = context.getCounter(FawnKvOutputCounter.RECORDS_STAGED);
    var bytes = context.getCounter(FawnKvOutputCounter.BYTES_STAGED);
    return new RecordWriter<>() {
      @Override
      public void write(BytesWritable key, BytesWritable value) throws IOException {
        try {
          writer.put(key.copyBytes(), value.copyBytes());
        } catch (IllegalArgumentException e) {
          throw new IOException("record " + (records.getValue() + 1) + " of "
              + context.getTaskAttemptID() + " cannot be loaded: " + e.getMessage(), e);
        }
        records.increment(1);
        bytes.increment(key.getLength() + (long) value.getLength());
      }

      @Override
      public void close(TaskAttemptContext task) throws IOException {
        try {
          ArcFileWriter.Written written = writer.finish();
          if (written.records() > 0) {
            publish(task, range, file, written);
          }
        } finally {
          deleteLocal(local);
        }
      }
    };
  }

  /** Copies the arc's file into the attempt's directory, then its length, CRC and count. */
  private void publish(TaskAttemptContext task, KeyRange range, java.nio.file.Path file,
      ArcFileWriter.Written written) throws IOException {
    Path dir = getDefaultWorkFile(task, "").getParent();
    FileSystem fs = dir.getFileSystem(task.getConfiguration());
    String name = FILE_PREFIX + String.format("%016x", range.endInclusive()) + ".fds";
    fs.copyFromLocalFile(false, true, new Path(file.toUri()), new Path(dir, name));
    try (FSDataOutputStream meta = fs.create(new Path(dir, name + META_SUFFIX), true)) {
      meta.write((written.bytes() + " " + Integer.toHexString(written.crc32c()) + " "
          + written.records() + "\n").getBytes(StandardCharsets.US_ASCII));
    }
  }

  private static void deleteLocal(java.nio.file.Path dir) throws IOException {
    try (var files = Files.walk(dir)) {
      for (java.nio.file.Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(f);
      }
    }
  }

  @Override
  public void checkOutputSpecs(JobContext context) throws IOException {
    Configuration conf = context.getConfiguration();
    if (conf.get(KvKeys.ZOOKEEPER_QUORUM.name()) == null) {
      throw new IOException("FAWN-KV output needs " + KvKeys.ZOOKEEPER_QUORUM.name());
    }
    AttachPlan plan = AttachPlan.read(conf, context.getCredentials());
    if (context.getNumReduceTasks() != plan.arcs().size()) {
      throw new IOException("a bulk load by attached files needs one reduce per arc ("
          + plan.arcs().size() + "), not " + context.getNumReduceTasks());
    }
    int version = conf.getInt(FileOutputCommitter.FILEOUTPUTCOMMITTER_ALGORITHM_VERSION, 1);
    if (version != 1) {
      throw new IOException(FileOutputCommitter.FILEOUTPUTCOMMITTER_ALGORITHM_VERSION + "="
          + version + ": a FAWN-KV bulk load needs algorithm 1");
    }
    super.checkOutputSpecs(context);
  }

  @Override
  public synchronized OutputCommitter getOutputCommitter(TaskAttemptContext context)
      throws IOException {
    return new AttachCommitter(getOutputPath(context), context);
  }
}

package org.fawnpack.kv.hadoop;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every entry of an offline FAWN-KV snapshot ({@code fawn kv snapshot --to DIR}) as a map
 * input, read from the snapshot's files on the job's file system with no FAWN-KV node running:
 * a split per arc, located where most of its log's blocks are, read as a stream by
 * {@link SnapshotRecordReader}. Keys and values as {@link BytesWritable};
 * {@code fawn.kv.input.key-prefix} applies as it does online.
 *
 * <pre>{@code
 * FawnKvSnapshotInputFormat.setUp(job, new Path("hdfs:///snapshots/monday"));
 * }</pre>
 */
public class FawnKvSnapshotInputFormat extends InputFormat<BytesWritable, BytesWritable> {
  private static final Logger LOG = LoggerFactory.getLogger(FawnKvSnapshotInputFormat.class);
  /** Hosts named per split, as HDFS's own input formats do. */
  private static final int MAX_HOSTS = 3;

  /** Makes {@code job} read the snapshot in {@code dir}; refuses a directory with no manifest. */
  public static void setUp(Job job, Path dir) throws IOException {
    Configuration conf = job.getConfiguration();
    Path qualified = dir.getFileSystem(conf).makeQualified(dir);
    SnapshotManifest.read(qualified, conf); // refused now, by name, rather than at getSplits
    conf.set(KvInputKeys.SNAPSHOT_DIR.name(), qualified.toString());
    job.setInputFormatClass(FawnKvSnapshotInputFormat.class);
  }

  @Override
  public List<InputSplit> getSplits(JobContext context) throws IOException {
    Configuration conf = context.getConfiguration();
    String dirName = KvInputKeys.read(KvInputKeys.SNAPSHOT_DIR, conf);
    if (dirName == null) {
      throw new IOException("no snapshot to read: set " + KvInputKeys.SNAPSHOT_DIR.name()
          + " (FawnKvSnapshotInputFormat.setUp(job, dir))");
    }
    Path dir = new Path(dirName);
    SnapshotManifest manifest = SnapshotManifest.read(dir, conf);
    FileSystem fs = dir.getFileSystem(conf);
    List<InputSplit> splits = new ArrayList<>();
    for (SnapshotManifest.Arc arc : manifest.arcs()) {
      FileStatus log = fs.getFileStatus(new Path(dir, arc.file()));
      if (log.getLen() != arc.logBytes()) {
        throw new IOException(log.getPath() + " has " + log.getLen() + " bytes, its manifest"
            + " says " + arc.logBytes());
      }
      splits.add(new SnapshotSplit(dirName, arc, hostsWithMostBytes(fs, log)));
    }
    LOG.info("FAWN-KV snapshot input: {} splits from {} (cluster {}, epoch {}, taken {})",
        splits.size(), dir, manifest.cluster(), manifest.epoch(), manifest.taken());
    return splits;
  }

  /** The hosts that store the most bytes of {@code file}, most first. */
  static String[] hostsWithMostBytes(FileSystem fs, FileStatus file) throws IOException {
    Map<String, Long> bytes = new HashMap<>();
    for (BlockLocation block : fs.getFileBlockLocations(file, 0, file.getLen())) {
      for (String host : block.getHosts()) {
        bytes.merge(host, block.getLength(), Long::sum);
      }
    }
    return bytes.entrySet().stream()
        .sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder())
            .thenComparing(Map.Entry.comparingByKey()))
        .limit(MAX_HOSTS).map(Map.Entry::getKey).toArray(String[]::new);
  }

  @Override
  public RecordReader<BytesWritable, BytesWritable> createRecordReader(InputSplit split,
      TaskAttemptContext context) {
    return new SnapshotRecordReader();
  }
}

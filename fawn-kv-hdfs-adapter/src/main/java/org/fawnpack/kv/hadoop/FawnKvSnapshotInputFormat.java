package org.fawnpack.kv.hadoop;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
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
 * arcs grouped by the host that stores most of their log and packed up to
 * {@code fawn.kv.input.split-bytes} per split, located where their blocks are, each read as a
 * stream by {@link SnapshotRecordReader}. Keys and values as {@link BytesWritable};
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
    long splitBytes = KvInputKeys.read(KvInputKeys.SPLIT_BYTES, conf);
    // Arcs by the host that stores most of their log, then packed up to the split size, so
    // that small arcs share a map on the host that holds them.
    Map<String, List<SnapshotManifest.Arc>> byHost = new TreeMap<>();
    Map<SnapshotManifest.Arc, Map<String, Long>> bytesByHost = new HashMap<>();
    for (SnapshotManifest.Arc arc : manifest.arcs()) {
      FileStatus log = fs.getFileStatus(new Path(dir, arc.file()));
      if (log.getLen() != arc.logBytes()) {
        throw new IOException(log.getPath() + " has " + log.getLen() + " bytes, its manifest"
            + " says " + arc.logBytes());
      }
      Map<String, Long> hosts = bytesByHost(fs, log);
      bytesByHost.put(arc, hosts);
      byHost.computeIfAbsent(mostFirst(hosts).stream().findFirst().orElse(""),
          h -> new ArrayList<>()).add(arc);
    }
    List<InputSplit> splits = new ArrayList<>();
    for (List<SnapshotManifest.Arc> arcs : byHost.values()) {
      List<SnapshotManifest.Arc> group = new ArrayList<>();
      long groupBytes = 0;
      for (SnapshotManifest.Arc arc : arcs) {
        if (!group.isEmpty() && groupBytes + arc.logBytes() > splitBytes) {
          splits.add(split(dirName, group, bytesByHost));
          group = new ArrayList<>();
          groupBytes = 0;
        }
        group.add(arc);
        groupBytes += arc.logBytes();
      }
      splits.add(split(dirName, group, bytesByHost));
    }
    LOG.info("FAWN-KV snapshot input: {} splits of {} arcs from {} (cluster {}, epoch {},"
        + " taken {})", splits.size(), manifest.arcs().size(), dir, manifest.cluster(),
        manifest.epoch(), manifest.taken());
    return splits;
  }

  private static SnapshotSplit split(String dir, List<SnapshotManifest.Arc> arcs,
      Map<SnapshotManifest.Arc, Map<String, Long>> bytesByHost) {
    Map<String, Long> total = new HashMap<>();
    for (SnapshotManifest.Arc arc : arcs) {
      bytesByHost.get(arc).forEach((host, bytes) -> total.merge(host, bytes, Long::sum));
    }
    return new SnapshotSplit(dir, arcs, mostFirst(total).stream().limit(MAX_HOSTS)
        .toArray(String[]::new));
  }

  /** How many bytes of {@code file} each host stores. */
  static Map<String, Long> bytesByHost(FileSystem fs, FileStatus file) throws IOException {
    Map<String, Long> bytes = new HashMap<>();
    for (BlockLocation block : fs.getFileBlockLocations(file, 0, file.getLen())) {
      for (String host : block.getHosts()) {
        bytes.merge(host, block.getLength(), Long::sum);
      }
    }
    return bytes;
  }

  /** The hosts, those storing the most bytes first. */
  private static List<String> mostFirst(Map<String, Long> bytes) {
    return bytes.entrySet().stream()
        .sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder())
            .thenComparing(Map.Entry.comparingByKey()))
        .map(Map.Entry::getKey).toList();
  }

  @Override
  public RecordReader<BytesWritable, BytesWritable> createRecordReader(InputSplit split,
      TaskAttemptContext context) {
    return new SnapshotRecordReader();
  }
}

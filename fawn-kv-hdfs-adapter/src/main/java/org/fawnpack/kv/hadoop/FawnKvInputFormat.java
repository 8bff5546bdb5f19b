package org.fawnpack.kv.hadoop;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.wire.Verb;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every entry of a FAWN-KV cluster (or those under {@code fawn.kv.input.key-prefix}) as a map
 * input: keys and values as {@link BytesWritable}. Splits come from the ring's arcs, sized by
 * their live bytes ({@link SplitPlanner}), located at the hosts that serve them; each map reads
 * its ranges by range scans from the arcs' tails and fails over to the next tail without
 * losing or repeating an entry ({@link FawnKvRecordReader}).
 *
 * <pre>{@code
 * job.getConfiguration().set("fawn.kv.zookeeper.quorum", "master:2181");
 * FawnKvInputFormat.setUp(job); // input format, and the cluster secret into the credentials
 * }</pre>
 */
public class FawnKvInputFormat extends InputFormat<BytesWritable, BytesWritable> {
  private static final Logger LOG = LoggerFactory.getLogger(FawnKvInputFormat.class);

  /** Makes {@code job} read FAWN-KV, its maps proving the secret in {@code fawn.kv.secret-file}. */
  public static void setUp(Job job) throws IOException {
    job.setInputFormatClass(FawnKvInputFormat.class);
    KvClusterAccess.addSecret(job.getConfiguration(), job.getCredentials());
  }

  @Override
  public List<InputSplit> getSplits(JobContext context) throws IOException {
    Configuration conf = context.getConfiguration();
    long splitBytes = KvInputKeys.read(KvInputKeys.SPLIT_BYTES, conf);
    int maxSplits = KvInputKeys.read(KvInputKeys.MAX_SPLITS, conf);
    KvClusterAccess.addSecret(conf, context.getCredentials());
    try (KvClusterAccess cluster = KvClusterAccess.open(conf, context.getCredentials())) {
      Ring ring = cluster.rings().read(cluster.rings().ringHash())
          .orElseThrow(() -> new IOException("the FAWN-KV cluster has no ring yet (no epoch in"
              + " ZooKeeper)")).ring();
      List<ArcSize> arcs = ArcSizes.measure(ring, cluster.pool(),
          cluster.timeouts().of(Verb.STATS));
      if (KvInputKeys.read(KvInputKeys.CONSISTENT, conf)) {
        for (ArcSize arc : arcs) {
          if (arc.tailSequence() == ArcSize.UNKNOWN_SEQUENCE) {
            throw new IOException("a point-in-time read (" + KvInputKeys.CONSISTENT.name()
                + ") needs the last sequence number of arc " + arc.range() + " from its tail,"
                + " which gave none; submit again once the ring has settled");
          }
        }
      }
      List<InputSplit> splits = new ArrayList<>(SplitPlanner.plan(arcs, splitBytes, maxSplits));
      LOG.info("FAWN-KV input: {} splits from {} arcs of epoch {} ({} live bytes, split size"
          + " {})", splits.size(), arcs.size(), ring.epoch(),
          arcs.stream().mapToLong(ArcSize::bytes).sum(), splitBytes);
      return splits;
    }
  }

  @Override
  public RecordReader<BytesWritable, BytesWritable> createRecordReader(InputSplit split,
      TaskAttemptContext context) {
    return new FawnKvRecordReader();
  }
}

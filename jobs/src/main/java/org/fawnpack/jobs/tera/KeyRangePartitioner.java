package org.fawnpack.jobs.tera;

import java.util.Base64;
import java.util.List;
import org.apache.hadoop.conf.Configurable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Partitioner;

/**
 * Total-order partitioning: reducer i gets the keys k with cut[i-1] <= k < cut[i], so the
 * reducers' outputs, read in order, are one sorted sequence. The cut points travel in the job's
 * configuration ({@value #CUT_POINTS}, a few bytes per reducer), so no partition file is needed.
 * Each key is compared as one unsigned long (bytes 0..7) and one short (bytes 8..9): a binary
 * search of a few long compares per record.
 */
public final class KeyRangePartitioner extends Partitioner<SortKey, SortValue>
    implements Configurable {
  /** The cut points: reducers − 1 keys, ascending, concatenated, Base64 (set by terasort). */
  public static final String CUT_POINTS = "fawn.jobs.terasort.cut-points";

  private Configuration conf;
  private long[] cutHigh;
  private int[] cutLow;

  /** Stores the cut points in {@code conf}. */
  public static void setCutPoints(Configuration conf, List<byte[]> cuts) {
    byte[] all = new byte[cuts.size() * SortRecord.KEY_BYTES];
    for (int i = 0; i < cuts.size(); i++) {
      System.arraycopy(cuts.get(i), 0, all, i * SortRecord.KEY_BYTES, SortRecord.KEY_BYTES);
    }
    conf.set(CUT_POINTS, Base64.getEncoder().encodeToString(all));
  }

  @Override
  public void setConf(Configuration configuration) {
    conf = configuration;
    String encoded = configuration.get(CUT_POINTS);
    if (encoded == null) {
      throw new IllegalStateException(CUT_POINTS + " is not set: terasort sets it from the"
          + " sampled keys before submitting");
    }
    byte[] all = Base64.getDecoder().decode(encoded);
    int n = all.length / SortRecord.KEY_BYTES;
    cutHigh = new long[n];
    cutLow = new int[n];
    for (int i = 0; i < n; i++) {
      cutHigh[i] = high(all, i * SortRecord.KEY_BYTES);
      cutLow[i] = low(all, i * SortRecord.KEY_BYTES);
    }
  }

  @Override
  public Configuration getConf() {
    return conf;
  }

  @Override
  public int getPartition(SortKey key, SortValue value, int partitions) {
    if (partitions != cutHigh.length + 1) {
      throw new IllegalStateException(cutHigh.length + " cut points make " + (cutHigh.length + 1)
          + " partitions, but the job has " + partitions + " reducers");
    }
    byte[] k = key.bytes();
    return partitionOf(high(k, 0), low(k, 0));
  }

  /** The number of cut points <= the key (upper bound by binary search). */
  int partitionOf(long high, int low) {
    int lo = 0;
    int hi = cutHigh.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      int c = Long.compareUnsigned(cutHigh[mid], high);
      if (c < 0 || (c == 0 && cutLow[mid] <= low)) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  private static long high(byte[] key, int offset) {
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = (v << 8) | (key[offset + i] & 0xff);
    }
    return v;
  }

  private static int low(byte[] key, int offset) {
    return ((key[offset + 8] & 0xff) << 8) | (key[offset + 9] & 0xff);
  }
}

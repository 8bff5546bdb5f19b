package org.fawnpack.kv.hadoop;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.fawnpack.kv.scan.Arcs;
import org.fawnpack.kv.scan.RangeScan;
import org.fawnpack.kv.scan.RingSource;
import org.fawnpack.kv.scan.ScanPageReader;
import org.fawnpack.kv.store.KeyRange;

/**
 * Reads a {@link FawnKvSplit}'s ranges one after the other, each by a {@link RangeScan} that
 * follows the ring in ZooKeeper (a session per map), so a tail that fails or a ring that moves
 * mid-scan costs a page asked again, never an entry lost or repeated. With
 * {@code fawn.kv.input.consistent} each range is read as of its cut, from any member of its
 * chain, those on this host first. Progress is the share of the split's ring positions read,
 * each range's own part by its member's log bytes.
 */
final class FawnKvRecordReader extends RecordReader<BytesWritable, BytesWritable> {
  private List<KeyRange> ranges;
  private int at;
  private double doneLength;
  private double totalLength;
  private KvClusterAccess cluster;
  private RingSource.Watched rings;
  private RangeScan.Options options;
  private boolean consistent;
  private FawnKvSplit split;
  private RangeScan scan;
  private final BytesWritable key = new BytesWritable();
  private final BytesWritable value = new BytesWritable();
  private Counter bytesRead;
  private Counter pagesAskedAgain;
  private Counter pages;
  private long countedRetries;
  private long countedPages;

  @Override
  public void initialize(InputSplit split, TaskAttemptContext context) throws IOException {
    Configuration conf = context.getConfiguration();
    this.split = (FawnKvSplit) split;
    ranges = this.split.ranges();
    consistent = KvInputKeys.read(KvInputKeys.CONSISTENT, conf);
    totalLength = ranges.stream().mapToDouble(Arcs::length).sum();
    String prefix = KvInputKeys.read(KvInputKeys.KEY_PREFIX, conf);
    options = new RangeScan.Options(
        (int) (long) KvInputKeys.read(KvInputKeys.PAGE_BYTES, conf),
        prefix == null ? new byte[0] : prefix.getBytes(StandardCharsets.UTF_8),
        Duration.ofSeconds(KvInputKeys.read(KvInputKeys.PAGE_TIMEOUT_SECONDS, conf)),
        Duration.ofSeconds(KvInputKeys.read(KvInputKeys.FAILOVER_SECONDS, conf)), 0,
        host -> false, org.fawnpack.kv.config.BackoffKeys.read(conf::getTrimmed).cluster());
    bytesRead = context.getCounter(FawnKvInputCounter.BYTES_READ);
    pagesAskedAgain = context.getCounter(FawnKvInputCounter.SCAN_PAGES_ASKED_AGAIN);
    pages = context.getCounter(FawnKvInputCounter.SCAN_PAGES);
    cluster = KvClusterAccess.open(conf, context.getCredentials());
    rings = RingSource.watching(cluster.rings());
  }

  @Override
  public boolean nextKeyValue() throws IOException {
    while (at < ranges.size()) {
      if (scan == null) {
        long cut = split.cut(at);
        if (consistent && cut <= 0) {
          if (cut < 0) {
            throw new IOException("range " + ranges.get(at) + " has no cut for a"
                + " point-in-time read (its tail gave none when the job was planned)");
          }
          doneLength += Arcs.length(ranges.get(at)); // empty at its cut
          at++;
          continue;
        }
        scan = new RangeScan(rings, cluster.pool(), ranges.get(at), consistent
            ? options.asOf(cut, LocalHosts::isLocal) : options);
        countedRetries = 0;
        countedPages = 0;
      }
      boolean more = scan.advance();
      count();
      if (more) { // copied once, from where the entry lies in the page, into the writables
        ScanPageReader e = scan.current();
        key.set(e.array(), e.keyOffset(), e.keyLength());
        value.set(e.array(), e.valueOffset(), e.valueLength());
        bytesRead.increment(e.keyLength() + (long) e.valueLength());
        return true;
      }
      doneLength += Arcs.length(ranges.get(at));
      scan = null;
      at++;
    }
    return false;
  }

  /** Brings the counters up to the current scan's figures. */
  private void count() {
    pagesAskedAgain.increment(scan.retries() - countedRetries);
    countedRetries = scan.retries();
    pages.increment(scan.pages() - countedPages);
    countedPages = scan.pages();
  }

  @Override
  public BytesWritable getCurrentKey() {
    return key;
  }

  @Override
  public BytesWritable getCurrentValue() {
    return value;
  }

  @Override
  public float getProgress() {
    if (ranges == null || totalLength == 0) {
      return 0;
    }
    double current = scan == null ? 0 : Arcs.length(ranges.get(at)) * scan.progress();
    return (float) Math.min(1, (doneLength + current) / totalLength);
  }

  @Override
  public void close() throws IOException {
    try {
      if (rings != null) {
        rings.close();
      }
    } finally {
      if (cluster != null) {
        cluster.close();
      }
    }
  }
}

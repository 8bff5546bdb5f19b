package org.fawnpack.benchmarks;

/** Operation latencies in 100 ns buckets up to 10 ms (slower ones in the last bucket). */
final class LatencyHistogram {

  private static final int BUCKET_NANOS = 100;
  private final long[] counts = new long[100_000];
  private long total;

  void record(long nanos) {
    int bucket = (int) Math.min(counts.length - 1, Math.max(0, nanos / BUCKET_NANOS));
    counts[bucket]++;
    total++;
  }

  void add(LatencyHistogram other) {
    for (int i = 0; i < counts.length; i++) {
      counts[i] += other.counts[i];
    }
    total += other.total;
  }

  /** The upper edge of the bucket holding the given quantile, in microseconds. */
  double quantileMicros(double q) {
    long rank = (long) Math.ceil(q * total);
    long seen = 0;
    for (int i = 0; i < counts.length; i++) {
      seen += counts[i];
      if (seen >= rank && seen > 0) {
        return (i + 1) * BUCKET_NANOS / 1000.0;
      }
    }
    return Double.NaN;
  }
}

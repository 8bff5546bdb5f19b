package org.fawnpack.kv.backend;

/**
 * How a back-end compacts its arc files ({@code fawn.kv.compaction.*}): an arc whose estimated
 * garbage (bytes of superseded and deleted records over its file's bytes) reaches
 * {@code garbageRatio} is compacted, one arc at a time, its reads paced to
 * {@code bytesPerSecond}; history a point-in-time read may still ask for, a cut taken within
 * {@code cutRetentionMs}, is kept; arcs are looked at every {@code checkMs}.
 */
public record CompactionSettings(double garbageRatio, long bytesPerSecond, long cutRetentionMs,
    long checkMs) {

  /** The defaults of the configuration keys. */
  public static final CompactionSettings DEFAULTS =
      new CompactionSettings(0.5, 8L << 20, 3_600_000, 10_000);

  public CompactionSettings {
    if (!(garbageRatio > 0 && garbageRatio <= 1)) {
      throw new IllegalArgumentException("a garbage ratio is in (0, 1]: " + garbageRatio);
    }
    if (bytesPerSecond < 1 || cutRetentionMs < 0 || checkMs < 1) {
      throw new IllegalArgumentException("compaction pacing, retention and check interval must"
          + " be positive: " + bytesPerSecond + " B/s, " + cutRetentionMs + " ms, " + checkMs
          + " ms");
    }
  }
}

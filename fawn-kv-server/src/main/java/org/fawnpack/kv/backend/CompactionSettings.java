package org.fawnpack.kv.backend;

import java.util.function.UnaryOperator;
import org.fawnpack.kv.config.KvKeys;

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

  /** The compaction settings the {@code fawn.kv.compaction.*} keys give, or null when off. */
  public static CompactionSettings fromKeys(UnaryOperator<String> settings) {
    if (!KvKeys.COMPACTION_ENABLED.read(settings)) {
      return null;
    }
    return new CompactionSettings(KvKeys.COMPACTION_GARBAGE_RATIO.read(settings),
        KvKeys.COMPACTION_BYTES_PER_SECOND.read(settings),
        KvKeys.COMPACTION_CUT_RETENTION_MS.read(settings),
        KvKeys.COMPACTION_CHECK_MS.read(settings));
  }

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

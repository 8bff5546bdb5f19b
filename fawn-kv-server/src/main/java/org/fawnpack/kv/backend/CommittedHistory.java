package org.fawnpack.kv.backend;

import java.util.ArrayDeque;

/**
 * When an arc's chain held which writes: samples of the sequence number every member after
 * this one holds, with the time each was taken, so that a compaction can keep what a cut taken
 * within the retention still needs. A cut is a number the tail had committed when the reader
 * took it, at least what any member knew committed then; so history up to a number sampled
 * before now - retention is needed by no cut taken since. Not thread-safe (one compactor).
 */
final class CommittedHistory {
  private record Sample(long nanos, long committed) {}

  private final ArrayDeque<Sample> samples = new ArrayDeque<>();

  /** What the chain holds at {@code nanos} (a later sample never lowers it). */
  void sample(long nanos, long committed) {
    Sample last = samples.peekLast();
    if (last == null || committed > last.committed()) {
      samples.addLast(new Sample(nanos, Math.max(committed,
          last == null ? 0 : last.committed())));
    }
  }

  /**
   * The highest number sampled at least {@code retentionNanos} before {@code nowNanos} (0 when
   * none is that old); older samples are dropped.
   */
  long committedBefore(long nowNanos, long retentionNanos) {
    Sample oldEnough = null;
    while (!samples.isEmpty() && nowNanos - samples.peekFirst().nanos() >= retentionNanos) {
      oldEnough = samples.pollFirst();
    }
    if (oldEnough == null) {
      return 0;
    }
    samples.addFirst(oldEnough); // still the answer until a newer sample is old enough
    return oldEnough.committed();
  }
}

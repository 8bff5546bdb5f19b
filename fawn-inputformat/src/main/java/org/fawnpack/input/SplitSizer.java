package org.fawnpack.input;

/**
 * The arithmetic of split sizing, kept free of Hadoop so it can be tested on its own.
 *
 * <p>CombineFileInputFormat closes a split as soon as it holds at least the maximum size, so
 * {@code ceil(total / vcores)} yields at most {@code vcores} splits: one map container per vcore.
 */
final class SplitSizer {

  private SplitSizer() {}

  /**
   * Maximum split size for the one-per-vcore policy.
   *
   * @param totalBytes input bytes after filtering (hidden and empty files removed), {@code >= 0}
   * @param vcores vcores the job's maps can use, {@code >= 1}
   * @param minBytes floor, so that a tiny input is not spread over every vcore
   * @param maxBytes cap, so that one map never gets more than a container should hold
   */
  static long onePerVcore(long totalBytes, int vcores, long minBytes, long maxBytes) {
    if (totalBytes < 0) {
      throw new IllegalArgumentException("totalBytes cannot be negative: " + totalBytes);
    }
    if (vcores < 1) {
      throw new IllegalArgumentException("vcores must be at least 1: " + vcores);
    }
    if (minBytes < 1 || maxBytes < minBytes) {
      throw new IllegalArgumentException(
          "need 1 <= minBytes <= maxBytes, got " + minBytes + " and " + maxBytes);
    }
    long perVcore = Math.floorDiv(totalBytes, vcores) + (totalBytes % vcores == 0 ? 0 : 1);
    return Math.min(maxBytes, Math.max(minBytes, perVcore));
  }
}

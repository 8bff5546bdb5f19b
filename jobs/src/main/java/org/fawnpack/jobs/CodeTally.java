package org.fawnpack.jobs;

/**
 * Counts positive int codes without boxing: an open-addressing table of (code, count). Holds the
 * (date, level) pairs of logcount2's in-mapper combining: a few thousand at most.
 *
 * <p>Not thread-safe: one per map task.
 */
final class CodeTally {

  /** Receives each code and its count. */
  interface Sink {
    void accept(int code, long count) throws java.io.IOException, InterruptedException;
  }

  private int[] codes = new int[64];
  private long[] counts = new long[64];
  private int size;

  void add(int code) {
    if (code <= 0) {
      throw new IllegalArgumentException("codes must be positive: " + code);
    }
    int mask = codes.length - 1;
    int slot = mix(code) & mask;
    while (codes[slot] != 0 && codes[slot] != code) {
      slot = (slot + 1) & mask;
    }
    if (codes[slot] == 0) {
      codes[slot] = code;
      if (++size * 2 > codes.length) {
        counts[slot] = 1;
        grow();
        return;
      }
    }
    counts[slot]++;
  }

  private void grow() {
    int[] oldCodes = codes;
    long[] oldCounts = counts;
    codes = new int[oldCodes.length * 2];
    counts = new long[oldCodes.length * 2];
    int mask = codes.length - 1;
    for (int i = 0; i < oldCodes.length; i++) {
      if (oldCodes[i] != 0) {
        int slot = mix(oldCodes[i]) & mask;
        while (codes[slot] != 0) {
          slot = (slot + 1) & mask;
        }
        codes[slot] = oldCodes[i];
        counts[slot] = oldCounts[i];
      }
    }
  }

  private static int mix(int code) {
    int h = code * 0x9E3779B9;
    return h ^ (h >>> 16);
  }

  int size() {
    return size;
  }

  void forEach(Sink sink) throws java.io.IOException, InterruptedException {
    for (int i = 0; i < codes.length; i++) {
      if (codes[i] != 0) {
        sink.accept(codes[i], counts[i]);
      }
    }
  }
}

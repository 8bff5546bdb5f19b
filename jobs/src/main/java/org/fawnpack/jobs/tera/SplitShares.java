package org.fawnpack.jobs.tera;

import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * Shares a number of splits among files by their lengths (largest remainder), every non-empty
 * file at least one piece and no file more pieces than records, so that e.g. 7 splits over two
 * equal files give 4 + 3 pieces, not 4 + 4 (which one piece size per file would give).
 */
final class SplitShares {

  private SplitShares() {}

  /** Pieces per file; empty files get one (empty) piece. */
  static int[] allocate(long[] lengths, int target) {
    int n = lengths.length;
    int[] pieces = new int[n];
    long total = Arrays.stream(lengths).sum();
    if (total == 0) {
      Arrays.fill(pieces, 1);
      return pieces;
    }
    double[] remainder = new double[n];
    int given = 0;
    for (int i = 0; i < n; i++) {
      double quota = (double) lengths[i] / total * target;
      pieces[i] = (int) Math.floor(quota);
      remainder[i] = quota - pieces[i];
      given += pieces[i];
    }
    Integer[] byRemainder = IntStream.range(0, n).boxed()
        .sorted(Comparator.comparingDouble((Integer i) -> -remainder[i])).toArray(Integer[]::new);
    for (int k = 0; given < target && k < n; k++) {
      pieces[byRemainder[k]]++;
      given++;
    }
    for (int i = 0; i < n; i++) {
      long records = lengths[i] / SortRecord.BYTES;
      pieces[i] = (int) Math.max(1, Math.min(pieces[i], records));
    }
    return pieces;
  }
}

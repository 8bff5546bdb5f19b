package org.fawnpack.energy.service;

/**
 * Splits a whole number of microjoules among weights so the parts add up exactly (largest
 * remainder). Exact integer parts are what let the ledger promise attributed + idle = metered.
 */
final class Apportion {
  private Apportion() {
  }

  /** Parts of {@code total} proportional to {@code weights}; all zero weights count as equal. */
  static long[] split(long total, double[] weights) {
    int n = weights.length;
    long[] parts = new long[n];
    double max = 0;
    for (double w : weights) {
      if (!(w >= 0) || Double.isInfinite(w)) {
        throw new IllegalArgumentException("weight " + w + " is not a finite non-negative number");
      }
      max = Math.max(max, w);
    }
    if (n == 0 || total == 0) {
      return parts;
    }
    // Scaled by the largest weight, so a sum of huge finite weights cannot overflow to infinity.
    double sum = 0;
    for (double w : weights) {
      sum += max > 0 ? w / max : 0;
    }
    double[] remainders = new double[n];
    long assigned = 0;
    for (int i = 0; i < n; i++) {
      double exact = sum > 0 ? total * ((max > 0 ? weights[i] / max : 0) / sum)
          : (double) total / n;
      parts[i] = (long) Math.floor(exact);
      remainders[i] = exact - parts[i];
      assigned += parts[i];
    }
    // Beyond 2^53 µJ doubles round, and rounding up can hand out more than the total: take the
    // excess back from the smallest remainders.
    for (long excess = assigned - total; excess > 0; excess--) {
      int worst = -1;
      for (int i = 0; i < n; i++) {
        if (parts[i] > 0 && (worst < 0 || remainders[i] < remainders[worst])) {
          worst = i;
        }
      }
      parts[worst]--;
      remainders[worst] += 1;
      assigned--;
    }
    // Hand out what rounding down left over, largest remainder first (ties: lowest index).
    for (long left = total - assigned; left > 0; left--) {
      int best = 0;
      for (int i = 1; i < n; i++) {
        if (remainders[i] > remainders[best]) {
          best = i;
        }
      }
      parts[best]++;
      remainders[best] = -1;
    }
    return parts;
  }
}

package org.fawnpack.benchmarks;

import java.util.Arrays;
import java.util.Collection;
import java.util.Locale;

/**
 * One figure measured over repeated rounds: the median, min and max the tables have always
 * shown, and the mean with its sample standard deviation (n − 1), which says how far the rounds
 * scatter on a shared machine. One round has no standard deviation: {@link #sd()} is NaN and is
 * written "–".
 *
 * <p>Not for latency percentiles of one run: those are a distribution within a run, not rounds.
 */
record RoundStats(int runs, double median, double min, double max, double mean, double sd) {

  /** What a table shows for the standard deviation of a single round. */
  static final String NO_SD = "–";

  static RoundStats of(Collection<? extends Number> values) {
    return of(values.stream().mapToDouble(Number::doubleValue).toArray());
  }

  static RoundStats of(double... values) {
    if (values.length == 0) {
      throw new IllegalArgumentException("no rounds to summarise");
    }
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    double median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    double mean = Arrays.stream(sorted).sum() / n;
    // Two passes (mean first, then squared deviations) keep the rounding error small.
    double squares = Arrays.stream(sorted).map(v -> (v - mean) * (v - mean)).sum();
    double sd = n < 2 ? Double.NaN : Math.sqrt(squares / (n - 1));
    return new RoundStats(n, median, sorted[0], sorted[n - 1], mean, sd);
  }

  /** "13.0 ± 3.6" with {@code pattern} "%.1f"; "13.0 ± –" for a single round. */
  String meanSd(String pattern) {
    return meanSd(mean, sd, pattern);
  }

  /**
   * The same text from a mean and standard deviation computed elsewhere (e.g. by a child JVM
   * that printed them as numbers); a NaN standard deviation is written "–".
   */
  static String meanSd(double mean, double sd, String pattern) {
    return String.format(Locale.ROOT, pattern, mean) + " ± "
        + (Double.isNaN(sd) ? NO_SD : String.format(Locale.ROOT, pattern, sd));
  }
}

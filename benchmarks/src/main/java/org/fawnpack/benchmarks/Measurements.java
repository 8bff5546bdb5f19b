package org.fawnpack.benchmarks;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Wall times per variant, in the order variants were first measured. */
final class Measurements {

  private final Map<String, List<Double>> seconds = new LinkedHashMap<>();
  private final Map<String, Long> mapContainers = new LinkedHashMap<>();

  void add(String variant, double wallSeconds, long maps) {
    seconds.computeIfAbsent(variant, v -> new ArrayList<>()).add(wallSeconds);
    mapContainers.put(variant, maps);
  }

  List<String> variants() {
    return List.copyOf(seconds.keySet());
  }

  boolean has(String variant) {
    return seconds.containsKey(variant);
  }

  int runs(String variant) {
    return seconds.get(variant).size();
  }

  long maps(String variant) {
    return mapContainers.getOrDefault(variant, 0L);
  }

  /** Median, min, max, mean and sample standard deviation of the variant's wall times. */
  RoundStats stats(String variant) {
    return RoundStats.of(seconds.get(variant));
  }

  double median(String variant) {
    return stats(variant).median();
  }

  double min(String variant) {
    return stats(variant).min();
  }

  double max(String variant) {
    return stats(variant).max();
  }
}

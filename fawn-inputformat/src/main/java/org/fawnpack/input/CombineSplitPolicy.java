package org.fawnpack.input;

import java.util.Arrays;
import java.util.stream.Collectors;

/** How the combined input formats choose their maximum split size. */
public enum CombineSplitPolicy {
  /** total input bytes / cluster vcores, within the min and max split bounds. */
  ONE_PER_VCORE("one-per-vcore"),
  /** exactly {@link FawnInputConfig#MAX_SPLIT_BYTES}. */
  FIXED("fixed");

  private final String configName;

  CombineSplitPolicy(String configName) {
    this.configName = configName;
  }

  /** The value of {@link FawnInputConfig#POLICY} that selects this policy. */
  public String configName() {
    return configName;
  }

  static String allowedNames() {
    return Arrays.stream(values()).map(CombineSplitPolicy::configName)
        .collect(Collectors.joining(", "));
  }
}

package org.fawnpack.configs;

/** A number from a profile together with where it comes from (a paper, a rule, a measurement). */
public record Sourced(double value, String source) {

  public Sourced {
    if (source == null || source.isBlank()) {
      throw new IllegalArgumentException("a profile number needs a source: " + value);
    }
  }

  public static Sourced of(double value, String source) {
    return new Sourced(value, source);
  }

  public int intValue() {
    return (int) Math.round(value);
  }
}

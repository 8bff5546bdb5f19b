package org.fawnpack.configs;

/** One problem {@link Validator} found: where (host, file, key, value) and what is wrong. */
public record Finding(Severity severity, String host, String file, String key, String value,
    String message) {

  /** Errors make a cluster fail or misbehave; warnings waste resources. */
  public enum Severity { ERROR, WARNING }

  @Override
  public String toString() {
    return severity + " " + host + " " + file + " " + key + "=" + value + ": " + message;
  }
}

package org.fawnpack.configs;

/**
 * A profile, inventory or rendered configuration file that cannot be used. The message names the
 * file, the key (a dotted path such as {@code tuning.map-heap-mb}) and the value found.
 */
public final class ConfigFileException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String file;
  private final String key;

  public ConfigFileException(String file, String key, Object value, String problem) {
    super(file + ": " + key + (value == null ? "" : "=" + value) + ": " + problem);
    this.file = file;
    this.key = key;
  }

  public String file() {
    return file;
  }

  public String key() {
    return key;
  }
}

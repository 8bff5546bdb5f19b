package org.fawnpack.kv.store;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A datastore file holds bytes that fail a check: the path, the byte offset, what was checked,
 * what was expected and what was found. Recovery decides whether to cut, skip or fail.
 */
public final class CorruptLogException extends IOException {

  private final transient Path path;
  private final long offset;

  public CorruptLogException(Path path, long offset, String what, String expected,
      String found) {
    super(path + " at offset " + offset + ": bad " + what + " (expected " + expected
        + ", found " + found + ")");
    this.path = path;
    this.offset = offset;
  }

  public Path path() {
    return path;
  }

  public long offset() {
    return offset;
  }
}

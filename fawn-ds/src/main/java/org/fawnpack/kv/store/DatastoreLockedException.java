package org.fawnpack.kv.store;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The datastore file is already open for writing, by another process or in this one. A log
 * has exactly one writer: two would interleave their appends and each would index only its own.
 */
public final class DatastoreLockedException extends IOException {

  private static final long serialVersionUID = 1L;

  private final transient Path path;

  DatastoreLockedException(Path path, String holder) {
    super(path + " is already open in " + holder + "; a datastore file has one writer at a "
        + "time: close the other one first");
    this.path = path;
  }

  public Path path() {
    return path;
  }
}

package org.fawnpack.kv.store;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The data log files this JVM has open. A second open of one of them is refused here, before
 * a channel is opened: the file lock is a POSIX lock, which belongs to the process, and closing
 * any channel on the file, even one that failed to lock it, would release it and leave the
 * first opener unprotected against other processes.
 */
final class OpenLogs {

  private static final ConcurrentHashMap<Path, Claim> OPEN = new ConcurrentHashMap<>();

  /** One log's hold on its file name; follows the file through a rename. */
  static final class Claim {
    private volatile Path key;

    private Claim(Path key) {
      this.key = key;
    }

    /**
     * The file was renamed over {@code target} (a compaction's swap). The target's name passes
     * to this claim; the log it replaces still holds the same name and must not free it.
     */
    void renamedTo(Path target) throws IOException {
      Path moved = keyOf(target);
      OPEN.put(moved, this);
      OPEN.remove(key, this);
      key = moved;
    }

    void release() {
      OPEN.remove(key, this);
    }
  }

  private OpenLogs() {}

  /**
   * Claims {@code file} (which may not exist yet) for this JVM.
   *
   * @throws DatastoreLockedException when this JVM has it open already
   */
  static Claim claim(Path file) throws IOException {
    Path key = keyOf(file);
    Claim claim = new Claim(key);
    if (OPEN.putIfAbsent(key, claim) != null) {
      throw new DatastoreLockedException(file, "this process");
    }
    return claim;
  }

  /** The same key for every spelling of a path: symbolic links in its directory resolved. */
  private static Path keyOf(Path file) throws IOException {
    Path absolute = file.toAbsolutePath();
    return absolute.getParent().toRealPath().resolve(absolute.getFileName());
  }
}

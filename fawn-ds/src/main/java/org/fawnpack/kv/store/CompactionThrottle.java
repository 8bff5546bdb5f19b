package org.fawnpack.kv.store;

import java.io.InterruptedIOException;

/**
 * Paces a compaction's reads and copies, which run outside the writer lock: told the bytes
 * each step read, it may sleep so that a wimpy node's one disk keeps room for reads and
 * writes. Never called while writes wait.
 */
@FunctionalInterface
public interface CompactionThrottle {

  /** No pacing: the compaction runs as fast as the disk goes. */
  CompactionThrottle NONE = bytes -> { };

  /**
   * {@code bytes} more were read or copied.
   *
   * @throws InterruptedIOException when the thread was interrupted while pacing (the
   *     compaction is then abandoned and the datastore left as it was)
   */
  void passed(long bytes) throws InterruptedIOException;
}

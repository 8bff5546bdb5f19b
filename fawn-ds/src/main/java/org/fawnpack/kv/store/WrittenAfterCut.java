package org.fawnpack.kv.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;

/**
 * For a read as of a cut in a view that goes past it: the keys written after the cut, each
 * with the log offset of its last record (put or delete) at or below the cut. The index points
 * only at a key's newest version, so these keys are the ones it cannot answer for; every other
 * key's newest version is at or below the cut. Found in two passes over the log, keys only
 * (the keys written after the cut are known only once the pass reaches them).
 */
final class WrittenAfterCut {
  /** What {@link #lastAtCut} answers for a key not written after the cut. */
  static final long NOT_WRITTEN_AFTER = -1;
  /** What {@link #lastAtCut} answers for a key written after the cut and absent at it. */
  static final long ABSENT_AT_CUT = -2;
  static final WrittenAfterCut NONE = new WrittenAfterCut(Map.of());

  /** Opens a fresh scanner over the view's log. */
  @FunctionalInterface
  interface Scanners {
    LogScanner open() throws IOException;
  }

  private final Map<ByteBuffer, Long> lastAtCut;

  private WrittenAfterCut(Map<ByteBuffer, Long> lastAtCut) {
    this.lastAtCut = lastAtCut;
  }

  static WrittenAfterCut find(Scanners scanners, long cut, KeyRange range) throws IOException {
    Map<ByteBuffer, Long> keys = new HashMap<>();
    LogScanner after = scanners.open();
    while (after.next()) {
      if (after.sequence() > cut) {
        byte[] key = after.key();
        if (range.contains(key)) {
          keys.putIfAbsent(ByteBuffer.wrap(key), ABSENT_AT_CUT);
        }
      }
    }
    if (keys.isEmpty()) {
      return NONE;
    }
    LogScanner upToCut = scanners.open();
    while (upToCut.next() && upToCut.sequence() <= cut) {
      ByteBuffer key = ByteBuffer.wrap(upToCut.key());
      if (keys.containsKey(key)) {
        keys.put(key, upToCut.kind() == RecordFormat.KIND_PUT ? upToCut.offset()
            : ABSENT_AT_CUT);
      }
    }
    return new WrittenAfterCut(keys);
  }

  /**
   * The offset of {@code key}'s version as of the cut, {@link #ABSENT_AT_CUT}, or
   * {@link #NOT_WRITTEN_AFTER} when the index answers for it.
   */
  long lastAtCut(byte[] key) {
    return lastAtCut.getOrDefault(ByteBuffer.wrap(key), NOT_WRITTEN_AFTER);
  }
}

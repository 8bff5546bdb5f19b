package org.fawnpack.kv.backend;

import java.util.LinkedHashMap;
import java.util.Map;
import org.fawnpack.kv.wire.WriteId;

/**
 * The most recent writes a chain member applied to one arc, by {@link WriteId}: the sequence
 * each got and, for a delete, whether the key was there. Every member keeps it, so the member
 * that becomes head after a failure still knows the writes that reached it, and a client's
 * retry of one of them is answered instead of applied again. Bounded: the oldest entries go
 * first, so a retry must come while its write is among the last {@link #CAPACITY} of the arc.
 * Kept in memory only: a restarted member or a fresh copy starts empty. Used under the arc's
 * lock.
 */
final class RecentWrites {
  static final int CAPACITY = 65_536;

  /** How a write went: its sequence number, and whether the key was present before it. */
  record Applied(long sequence, boolean present) {}

  private final Map<WriteId, Applied> applied = new LinkedHashMap<>(1_024, 0.75f, false) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<WriteId, Applied> eldest) {
      return size() > CAPACITY;
    }
  };

  /** Remembers that the write {@code id} got {@code sequence}; a write with no id is skipped. */
  void record(WriteId id, long sequence, boolean present) {
    if (!id.isNone()) {
      applied.putIfAbsent(id, new Applied(sequence, present));
    }
  }

  /** How write {@code id} went here, or null when it is not among the recent ones. */
  Applied find(WriteId id) {
    return id.isNone() ? null : applied.get(id);
  }

  int size() {
    return applied.size();
  }

  /**
   * The table as bytes, oldest first, led by {@code coversAll} (whether it saw every write of
   * the arc): sent with a copy of the arc, so the copier answers retries as this member would.
   */
  byte[] encode(boolean coversAll) {
    java.nio.ByteBuffer out = java.nio.ByteBuffer.allocate(1 + Integer.BYTES
        + applied.size() * (3 * Long.BYTES + 1));
    out.put((byte) (coversAll ? 1 : 0)).putInt(applied.size());
    applied.forEach((id, how) -> out.putLong(id.writer()).putLong(id.request())
        .putLong(how.sequence()).put((byte) (how.present() ? 1 : 0)));
    return out.array();
  }

  /**
   * Takes the entries of {@code bytes} from {@link #encode}; returns whether that table saw
   * every write of the arc.
   *
   * @throws IllegalArgumentException when the bytes are not such a table
   */
  boolean load(byte[] bytes) {
    java.nio.ByteBuffer in = java.nio.ByteBuffer.wrap(bytes);
    try {
      boolean coversAll = in.get() == 1;
      int count = in.getInt();
      if (count < 0 || count > CAPACITY || in.remaining() != count * (3 * Long.BYTES + 1)) {
        throw new IllegalArgumentException("a recent-writes table of " + bytes.length
            + " bytes claims " + count + " entries");
      }
      for (int i = 0; i < count; i++) {
        WriteId id = new WriteId(in.getLong(), in.getLong());
        applied.put(id, new Applied(in.getLong(), in.get() == 1));
      }
      return coversAll;
    } catch (java.nio.BufferUnderflowException e) {
      throw new IllegalArgumentException("a recent-writes table cut short at " + bytes.length
          + " bytes", e);
    }
  }
}

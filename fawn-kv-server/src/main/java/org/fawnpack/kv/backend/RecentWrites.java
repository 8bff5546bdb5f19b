package org.fawnpack.kv.backend;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import org.fawnpack.kv.wire.WriteId;

/**
 * The most recent writes a chain member applied to one arc, by {@link WriteId}: the sequence
 * each got and, for a delete, whether the key was there. Every member keeps it, so the member
 * that becomes head after a failure still knows the writes that reached it, and a client's
 * retry of one of them is answered instead of applied again. Bounded: the oldest entries go
 * first, so a retry must come while its write is among the last {@link #CAPACITY} of the arc.
 * Kept in memory only: a restarted member or a fresh copy starts empty. Used under the arc's
 * lock.
 *
 * <p>Held in primitive arrays, not a map of objects: a back-end is a member of a dozen arcs,
 * and full tables of three objects per entry held about 75 MB of a 256 MB heap in about 1.5
 * million small objects, which G1's concurrent marking walked again and again (measured: more
 * than half of the machine's CPU during a range scan after a load). Entries sit in a ring in
 * the order they came (the oldest is the next to go); an open-addressing index with linear
 * probing finds an id's ring slot, and an entry leaves it by backward shift, so a lookup
 * never walks over deleted slots. The arrays start small and double up to the capacity.
 */
final class RecentWrites {
  static final int CAPACITY = 65_536;
  private static final int FIRST_RING = 64;
  private static final int ENTRY_BYTES = 3 * Long.BYTES + 1;

  /** How a write went: its sequence number, and whether the key was present before it. */
  record Applied(long sequence, boolean present) {}

  private final int capacity;
  private long[] writers;
  private long[] requests;
  /** Sequence number shifted left by one, with whether the key was present in the low bit. */
  private long[] outcomes;
  /** Ring slot + 1 of each indexed entry, 0 for an empty slot; twice the ring's length. */
  private int[] index;
  /** Entries ever added: the ring slot of entry number n is n modulo the ring's length. */
  private long added;
  private int size;

  RecentWrites() {
    this(CAPACITY);
  }

  /** A table of at most {@code capacity} entries, a power of two (smaller ones in tests). */
  RecentWrites(int capacity) {
    if (capacity < 1 || Integer.bitCount(capacity) != 1) {
      throw new IllegalArgumentException("capacity is a power of two, not " + capacity);
    }
    this.capacity = capacity;
    allocate(Math.min(FIRST_RING, capacity));
  }

  /** Remembers that the write {@code id} got {@code sequence}; a write with no id is skipped. */
  void record(WriteId id, long sequence, boolean present) {
    if (!id.isNone() && slotOf(id.writer(), id.request()) < 0) {
      add(id.writer(), id.request(), outcome(sequence, present));
    }
  }

  /** How write {@code id} went here, or null when it is not among the recent ones. */
  Applied find(WriteId id) {
    if (id.isNone()) {
      return null;
    }
    int slot = slotOf(id.writer(), id.request());
    return slot < 0 ? null : new Applied(outcomes[slot] >>> 1, (outcomes[slot] & 1) == 1);
  }

  int size() {
    return size;
  }

  /**
   * The table as bytes, oldest first, led by {@code coversAll} (whether it saw every write of
   * the arc): sent with a copy of the arc, so the copier answers retries as this member would.
   */
  byte[] encode(boolean coversAll) {
    ByteBuffer out = ByteBuffer.allocate(1 + Integer.BYTES + size * ENTRY_BYTES);
    out.put((byte) (coversAll ? 1 : 0)).putInt(size);
    for (long n = added - size; n < added; n++) {
      int slot = ringSlot(n);
      out.putLong(writers[slot]).putLong(requests[slot]).putLong(outcomes[slot] >>> 1)
          .put((byte) (outcomes[slot] & 1));
    }
    return out.array();
  }

  /**
   * Takes the entries of {@code bytes} from {@link #encode} (an id already here takes the
   * table's outcome); returns whether that table saw every write of the arc.
   *
   * @throws IllegalArgumentException when the bytes are not such a table
   */
  boolean load(byte[] bytes) {
    ByteBuffer in = ByteBuffer.wrap(bytes);
    try {
      boolean coversAll = in.get() == 1;
      int count = in.getInt();
      if (count < 0 || count > capacity || in.remaining() != count * ENTRY_BYTES) {
        throw new IllegalArgumentException("a recent-writes table of " + bytes.length
            + " bytes claims " + count + " entries");
      }
      for (int i = 0; i < count; i++) {
        long writer = in.getLong();
        long request = in.getLong();
        long outcome = outcome(in.getLong(), in.get() == 1);
        int slot = slotOf(writer, request);
        if (slot >= 0) {
          outcomes[slot] = outcome;
        } else if (writer != 0 || request != 0) {
          add(writer, request, outcome);
        }
      }
      return coversAll;
    } catch (BufferUnderflowException e) {
      throw new IllegalArgumentException("a recent-writes table cut short at " + bytes.length
          + " bytes", e);
    }
  }

  private static long outcome(long sequence, boolean present) {
    return sequence << 1 | (present ? 1 : 0);
  }

  private void add(long writer, long request, long outcome) {
    if (size == writers.length) {
      if (writers.length < capacity) {
        grow();
      } else {
        unindex(ringSlot(added - size));
        size--;
      }
    }
    int slot = ringSlot(added++);
    writers[slot] = writer;
    requests[slot] = request;
    outcomes[slot] = outcome;
    size++;
    int mask = index.length - 1;
    int i = hash(writer, request) & mask;
    while (index[i] != 0) {
      i = (i + 1) & mask;
    }
    index[i] = slot + 1;
  }

  /** The ring slot of the entry for (writer, request), or -1. */
  private int slotOf(long writer, long request) {
    int mask = index.length - 1;
    for (int i = hash(writer, request) & mask; index[i] != 0; i = (i + 1) & mask) {
      int slot = index[i] - 1;
      if (writers[slot] == writer && requests[slot] == request) {
        return slot;
      }
    }
    return -1;
  }

  /** Takes ring slot {@code slot} out of the index, shifting back the entries probed past it. */
  private void unindex(int slot) {
    int mask = index.length - 1;
    int hole = hash(writers[slot], requests[slot]) & mask;
    while (index[hole] != slot + 1) {
      hole = (hole + 1) & mask;
    }
    for (int i = (hole + 1) & mask; index[i] != 0; i = (i + 1) & mask) {
      int home = hash(writers[index[i] - 1], requests[index[i] - 1]) & mask;
      // The entry at i may fill the hole if the hole lies on its probe path from home to i.
      if (((i - home) & mask) >= ((i - hole) & mask)) {
        index[hole] = index[i];
        hole = i;
      }
    }
    index[hole] = 0;
  }

  /** Doubles the ring and the index, keeping the entries' order. */
  private void grow() {
    long[] oldWriters = writers;
    long[] oldRequests = requests;
    long[] oldOutcomes = outcomes;
    long first = added - size;
    int count = size;
    allocate(oldWriters.length * 2);
    added = first; // entry numbers go on, so the ring slots below follow from them
    size = 0;
    int oldMask = oldWriters.length - 1;
    for (long n = first; n < first + count; n++) {
      int old = (int) (n & oldMask);
      add(oldWriters[old], oldRequests[old], oldOutcomes[old]);
    }
  }

  private void allocate(int ringLength) {
    writers = new long[ringLength];
    requests = new long[ringLength];
    outcomes = new long[ringLength];
    index = new int[ringLength * 2];
  }

  private int ringSlot(long number) {
    return (int) (number & (writers.length - 1));
  }

  private static int hash(long writer, long request) {
    long x = writer * 0x9E3779B97F4A7C15L + request;
    x ^= x >>> 33;
    x *= 0xFF51AFD7ED558CCDL;
    x ^= x >>> 33;
    return (int) x;
  }
}

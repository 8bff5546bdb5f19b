package org.fawnpack.kv.store;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The DRAM hash index: 2^i buckets of 6 bytes in one {@code byte[]}, no object per entry.
 *
 * <pre>
 *  bucket bytes 0-1  (little-endian u16)  bit 15 = valid, bits 0-14 = key fragment
 *  bucket bytes 2-5  (little-endian u32)  log offset / 8 (unsigned: logs up to 32 GiB)
 *  empty bucket      all six bytes 0
 *  deleted bucket    valid bit 0, offset kept (never 0, records start after the file header)
 * </pre>
 *
 * A key's probe sequence visits {@link #PROBE_GROUPS} groups of {@link #GROUP_BUCKETS}
 * consecutive buckets; group 0 is chosen by the low bits of the key hash, group g by a
 * re-mixed hash (the paper's "few hash functions"). A lookup stops at the first empty bucket;
 * deleted buckets keep the chain going and are reused by inserts.
 *
 * <p>Not thread-safe: the datastore mutates it under its write lock and reads it optimistically
 * (see {@link Datastore}).
 */
final class HashIndex {

  static final int BUCKET_BYTES = 6;
  static final int GROUP_BUCKETS = 32;
  /**
   * Chains are long enough that a full one is practically impossible below the maximum load
   * factor: with 8 groups, one split output of 3.4 million keys at 0.82 load met a full chain.
   */
  static final int PROBE_GROUPS = 16;
  static final int MIN_CAPACITY_BITS = 5;
  /** 2^28 buckets = 1.5 GiB, the most one byte[] can hold in whole powers of two. */
  static final int MAX_CAPACITY_BITS = 28;

  private static final VarHandle SHORTS =
      MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle INTS =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final int VALID = 0x8000;

  /** Asks the log whether the record at a byte offset holds the key being looked up. */
  @FunctionalInterface
  interface KeyCheck {
    boolean matches(long offset) throws IOException;
  }

  private final byte[] buckets;
  private final int capacityBits;
  private final int groupMask;
  private int live;
  private int deleted;

  HashIndex(int capacityBits) {
    this(capacityBits, new byte[BUCKET_BYTES << checkBits(capacityBits)], 0, 0);
  }

  /** Adopts bucket bytes read from a checkpoint. */
  HashIndex(int capacityBits, byte[] buckets, int live, int deleted) {
    checkBits(capacityBits);
    if (buckets.length != BUCKET_BYTES << capacityBits) {
      throw new IllegalArgumentException("bucket array of " + buckets.length
          + " bytes does not match 2^" + capacityBits + " buckets");
    }
    this.capacityBits = capacityBits;
    this.buckets = buckets;
    this.groupMask = (1 << capacityBits) / GROUP_BUCKETS - 1;
    this.live = live;
    this.deleted = deleted;
  }

  private static int checkBits(int bits) {
    if (bits < MIN_CAPACITY_BITS || bits > MAX_CAPACITY_BITS) {
      throw new IllegalArgumentException("index capacity must be 2^" + MIN_CAPACITY_BITS
          + "..2^" + MAX_CAPACITY_BITS + " buckets, was 2^" + bits);
    }
    return bits;
  }

  /** The smallest capacity (in bits) holding {@code keys} below {@code loadFactor}. */
  static int bitsFor(long keys, double loadFactor) {
    long needed = (long) Math.ceil(Math.max(1, keys) / loadFactor);
    int bits = Math.max(MIN_CAPACITY_BITS, 64 - Long.numberOfLeadingZeros(needed - 1));
    if (bits > MAX_CAPACITY_BITS) {
      throw new IllegalStateException("an index for " + keys + " keys at load factor "
          + loadFactor + " needs more than 2^" + MAX_CAPACITY_BITS + " buckets");
    }
    return bits;
  }

  int capacityBits() {
    return capacityBits;
  }

  int capacity() {
    return 1 << capacityBits;
  }

  int live() {
    return live;
  }

  int deleted() {
    return deleted;
  }

  byte[] bucketBytes() {
    return buckets;
  }

  /**
   * The slot of the probe sequence's position {@code step} (0 .. probeLength()-1): group
   * {@code step / 32}, and within it a start chosen by the hash, wrapping inside the group.
   */
  int slotAt(long hash, int step) {
    int group = step / GROUP_BUCKETS;
    long h = groupHash(hash, group);
    return groupBase(h) + (((int) (h >>> 32) + step) & (GROUP_BUCKETS - 1));
  }

  private static long groupHash(long hash, int group) {
    return group == 0 ? hash : KeyHash.finish(hash + group * 0x9E3779B97F4A7C15L);
  }

  private int groupBase(long groupHash) {
    return ((int) groupHash & groupMask) * GROUP_BUCKETS;
  }

  static int probeLength() {
    return PROBE_GROUPS * GROUP_BUCKETS;
  }

  private short header(int slot) {
    return (short) SHORTS.get(buckets, slot * BUCKET_BYTES);
  }

  boolean isEmpty(int slot) {
    return header(slot) == 0 && (int) INTS.get(buckets, slot * BUCKET_BYTES + 2) == 0;
  }

  boolean isValid(int slot) {
    return (header(slot) & VALID) != 0;
  }

  /** The log byte offset a bucket points to. */
  long offset(int slot) {
    return Integer.toUnsignedLong((int) INTS.get(buckets, slot * BUCKET_BYTES + 2))
        * RecordFormat.ALIGNMENT;
  }

  /**
   * The first step at or after {@code fromStep} whose bucket is valid with the key's fragment,
   * or -1 when an empty bucket or the end of the probe sequence comes first.
   */
  int nextCandidateStep(long hash, int fromStep) {
    short wanted = (short) (VALID | KeyHash.fragment(hash));
    for (int group = fromStep / GROUP_BUCKETS; group < PROBE_GROUPS; group++) {
      long h = groupHash(hash, group);
      int base = groupBase(h);
      int start = (int) (h >>> 32);
      int first = group == fromStep / GROUP_BUCKETS ? fromStep % GROUP_BUCKETS : 0;
      for (int j = first; j < GROUP_BUCKETS; j++) {
        int slot = base + ((start + j) & (GROUP_BUCKETS - 1));
        short header = header(slot);
        if (header == wanted) {
          return group * GROUP_BUCKETS + j;
        }
        if (header == 0 && (int) INTS.get(buckets, slot * BUCKET_BYTES + 2) == 0) {
          return -1;
        }
      }
    }
    return -1;
  }

  /** The slot holding the key (confirmed by {@code check}), or -1. */
  int find(long hash, KeyCheck check) throws IOException {
    for (int step = nextCandidateStep(hash, 0); step >= 0;
        step = nextCandidateStep(hash, step + 1)) {
      int slot = slotAt(hash, step);
      if (check.matches(offset(slot))) {
        return slot;
      }
    }
    return -1;
  }

  /**
   * Reads the first bucket of the key's probe sequence and returns its header. Touching a
   * batch of keys before probing them issues their cache misses together, so they overlap
   * instead of costing one memory latency each (Java has no prefetch instruction).
   */
  int touch(long hash) {
    return header(slotAt(hash, 0));
  }

  /** Sink for a batch's {@link #touch} results, so that the JIT cannot drop those loads. */
  private static volatile int touched;

  /** Keeps the loads behind {@code sum} (touch results added up): one store per batch. */
  static void consume(int sum) {
    touched = sum;
  }

  /** Whether a valid bucket of the key's chain points at exactly this record. No log read. */
  boolean pointsAt(long hash, long offset) {
    return slotPointingAt(hash, offset) >= 0;
  }

  /** The valid bucket of the key's chain that points at exactly this record, or -1. */
  int slotPointingAt(long hash, long offset) {
    for (int step = nextCandidateStep(hash, 0); step >= 0;
        step = nextCandidateStep(hash, step + 1)) {
      int slot = slotAt(hash, step);
      if (offset(slot) == offset) {
        return slot;
      }
    }
    return -1;
  }

  /** A copy that the original's later changes do not touch. */
  HashIndex copy() {
    return new HashIndex(capacityBits, buckets.clone(), live, deleted);
  }

  /**
   * One walk for a put: the slot holding the key (confirmed by {@code check}) when it is there,
   * else {@code -2 - slot} of the first free bucket of its chain, else -1 (chain full).
   */
  int findOrFree(long hash, KeyCheck check) throws IOException {
    short wanted = (short) (VALID | KeyHash.fragment(hash));
    int free = -1;
    for (int group = 0; group < PROBE_GROUPS; group++) {
      long h = groupHash(hash, group);
      int base = groupBase(h);
      int start = (int) (h >>> 32);
      for (int j = 0; j < GROUP_BUCKETS; j++) {
        int slot = base + ((start + j) & (GROUP_BUCKETS - 1));
        short header = header(slot);
        if (header == wanted) {
          if (check.matches(offset(slot))) {
            return slot;
          }
        } else if ((header & VALID) == 0) {
          if (free < 0) {
            free = slot;
          }
          if (header == 0 && (int) INTS.get(buckets, slot * BUCKET_BYTES + 2) == 0) {
            return -2 - free;
          }
        }
      }
    }
    return free < 0 ? -1 : -2 - free;
  }

  /** Fills a free bucket found by {@link #findOrFree}. */
  void insertAt(int slot, long hash, long offset) {
    if (isValid(slot)) {
      throw new IllegalStateException("bucket " + slot + " is taken");
    }
    if (!isEmpty(slot)) {
      deleted--;
    }
    write(slot, VALID | KeyHash.fragment(hash), offset);
    live++;
  }

  /**
   * Puts a key known to be absent into the first free bucket of its chain; false when all the
   * chain's buckets are taken (the caller grows the index).
   */
  boolean insert(long hash, long offset) {
    for (int group = 0; group < PROBE_GROUPS; group++) {
      long h = groupHash(hash, group);
      int base = groupBase(h);
      int start = (int) (h >>> 32);
      for (int j = 0; j < GROUP_BUCKETS; j++) {
        int slot = base + ((start + j) & (GROUP_BUCKETS - 1));
        if ((header(slot) & VALID) == 0) {
          insertAt(slot, hash, offset);
          return true;
        }
      }
    }
    return false;
  }

  void repoint(int slot, long offset) {
    INTS.set(buckets, slot * BUCKET_BYTES + 2, units(offset));
  }

  void remove(int slot) {
    SHORTS.set(buckets, slot * BUCKET_BYTES, (short) 0);
    live--;
    deleted++;
  }

  /** Whether one more key would pass the load factor (deleted buckets count: they lengthen chains). */
  boolean full(double loadFactor) {
    return live + deleted + 1 > loadFactor * capacity();
  }

  private void write(int slot, int header, long offset) {
    INTS.set(buckets, slot * BUCKET_BYTES + 2, units(offset));
    SHORTS.set(buckets, slot * BUCKET_BYTES, (short) header);
  }

  private static int units(long offset) {
    if ((offset & (RecordFormat.ALIGNMENT - 1)) != 0 || offset <= 0
        || offset / RecordFormat.ALIGNMENT > 0xffffffffL) {
      throw new IllegalArgumentException("log offset " + offset
          + " is not an 8-byte-aligned position below 32 GiB");
    }
    return (int) (offset / RecordFormat.ALIGNMENT);
  }
}

package org.fawnpack.kv.store;

/**
 * Where a key sits on the ring, for split and for {@link DatastoreSet} ranges: the key's first
 * 8 bytes as an unsigned big-endian number (shorter keys padded with zero bytes). FAWN-KV keys
 * are 160-bit digests of the user's key, so their leading bits are their ring position.
 */
public final class RingPositions {

  private RingPositions() {}

  public static long of(byte[] key) {
    long p = 0;
    for (int i = 0; i < 8; i++) {
      p = (p << 8) | (i < key.length ? key[i] & 0xffL : 0);
    }
    return p;
  }

  /** Same, for a key stored in a buffer. */
  static long of(java.nio.ByteBuffer b, int from, int length) {
    long p = 0;
    for (int i = 0; i < 8; i++) {
      p = (p << 8) | (i < length ? b.get(from + i) & 0xffL : 0);
    }
    return p;
  }
}

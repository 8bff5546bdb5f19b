package org.fawnpack.kv.store;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A user key as FAWN-DS stores it: its 8-byte ring position, then the user's key whole. The
 * position first lets the engine split and merge range files by position without hashing,
 * and the whole key keeps two keys with one position apart.
 */
public final class EngineKeys {
  /** The ring position's bytes before the user's key. */
  public static final int POSITION_BYTES = 8;

  private EngineKeys() {}

  public static byte[] of(long position, byte[] userKey) {
    return ByteBuffer.allocate(8 + userKey.length).putLong(position).put(userKey).array();
  }

  public static byte[] userKey(byte[] engineKey) {
    return Arrays.copyOfRange(engineKey, 8, engineKey.length);
  }
}

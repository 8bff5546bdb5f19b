package org.fawnpack.kv.wire;

/**
 * The protocol's size limits and key rules, which client, front-end and back-end check alike:
 * a value is at most 16 MiB, a key 1 to 65,528 bytes (the engine's 64 KiB key limit less the
 * 8-byte ring position stored before it), and a frame has room for both and its other fields.
 */
public final class ProtocolLimits {
  /** The largest value a put may carry. */
  public static final int MAX_VALUE_BYTES = 16 << 20;
  /** The engine's key limit (64 KiB) less the ring position stored before the user's key. */
  public static final int MAX_KEY_BYTES = 65_536 - 8;
  /** The largest frame a node reads: a value, a key and room for the frame's other fields. */
  public static final int MAX_FRAME_BYTES = MAX_VALUE_BYTES + 65_536 + 256;
  /** The largest piece of an arc's file one ARC_CHUNK returns. */
  public static final int MAX_ARC_CHUNK_BYTES = 1 << 20;

  private ProtocolLimits() {}

  /** Null when {@code key} is a usable key, else why not (for a refusal naming it). */
  public static String keyProblem(byte[] key) {
    if (key.length == 0) {
      return "the key is empty";
    }
    if (key.length > MAX_KEY_BYTES) {
      return "the key has " + key.length + " bytes, more than " + MAX_KEY_BYTES;
    }
    return null;
  }

  /** Null when {@code key} and {@code value} (null for a delete) may be written, else why not. */
  public static String writeProblem(byte[] key, byte[] value) {
    String problem = keyProblem(key);
    if (problem == null && value != null && value.length > MAX_VALUE_BYTES) {
      problem = "the value has " + value.length + " bytes, more than " + MAX_VALUE_BYTES;
    }
    return problem;
  }
}

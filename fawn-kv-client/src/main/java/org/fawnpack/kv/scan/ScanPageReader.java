package org.fawnpack.kv.scan;

import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.MalformedFrameException;

/**
 * Reads a SCAN_PAGE ({@link ScanPage}'s layout) entry by entry where its bytes lie in the
 * frame: no key, value or entry object per entry. {@link #advance} moves to the next entry
 * (checking its lengths against the page), whose key and value are then {@link #array()} at
 * their offsets, until the next move. A page whose entries do not fill it exactly, or whose
 * lengths run past it, is malformed.
 */
public final class ScanPageReader {
  private static final int LEAD_BYTES = 6 * Long.BYTES;

  private final byte[] payload;
  private final long lastExamined;
  private final boolean done;
  private final long viewSequence;
  private final long offsetReached;
  private final long viewBytes;
  private final long count;
  private long read;
  private int at = LEAD_BYTES;
  private int keyOffset;
  private int keyLength;
  private int valueOffset;
  private int valueLength;

  public ScanPageReader(Frame frame) throws MalformedFrameException {
    payload = frame.payload() == null ? new byte[0] : frame.payload();
    if (payload.length < LEAD_BYTES) {
      throw new MalformedFrameException("a SCAN_PAGE of " + payload.length + " bytes, under"
          + " its " + LEAD_BYTES + " bytes of numbers");
    }
    lastExamined = longAt(0);
    done = longAt(8) == 1;
    viewSequence = longAt(16);
    offsetReached = longAt(24);
    viewBytes = longAt(32);
    count = longAt(40);
    if (count < 0 || count > payload.length / 8) {
      throw new MalformedFrameException("a SCAN_PAGE says it holds " + count + " entries in "
          + payload.length + " bytes");
    }
    if (count == 0) {
      checkFilled();
    }
  }

  /** Moves to the next entry; false after the last. */
  public boolean advance() throws MalformedFrameException {
    if (read == count) {
      return false;
    }
    keyLength = lengthAt("a key");
    keyOffset = at;
    at += keyLength;
    valueLength = lengthAt("a value");
    valueOffset = at;
    at += valueLength;
    if (++read == count) {
      checkFilled();
    }
    return true;
  }

  private int lengthAt(String what) throws MalformedFrameException {
    if (at + 4 > payload.length) {
      throw new MalformedFrameException("a SCAN_PAGE ends inside the length of " + what
          + " (entry " + read + " of " + count + ")");
    }
    int length = ((payload[at] & 0xff) << 24) | ((payload[at + 1] & 0xff) << 16)
        | ((payload[at + 2] & 0xff) << 8) | (payload[at + 3] & 0xff);
    at += 4;
    if (length < 0 || length > payload.length - at) {
      throw new MalformedFrameException("a SCAN_PAGE gives " + what + " of " + length
          + " bytes with " + (payload.length - at) + " left (entry " + read + " of " + count
          + ")");
    }
    return length;
  }

  private void checkFilled() throws MalformedFrameException {
    if (at != payload.length) {
      throw new MalformedFrameException("a SCAN_PAGE has " + (payload.length - at)
          + " bytes after its " + count + " entries");
    }
  }

  private long longAt(int i) {
    long v = 0;
    for (int b = 0; b < 8; b++) {
      v = (v << 8) | (payload[i + b] & 0xffL);
    }
    return v;
  }

  /** The array the current entry's key and value lie in. */
  public byte[] array() {
    return payload;
  }

  public int keyOffset() {
    return keyOffset;
  }

  public int keyLength() {
    return keyLength;
  }

  public int valueOffset() {
    return valueOffset;
  }

  public int valueLength() {
    return valueLength;
  }

  /** The current entry, copied out. */
  public ScanPage.ScanEntry copy() {
    return new ScanPage.ScanEntry(
        java.util.Arrays.copyOfRange(payload, keyOffset, keyOffset + keyLength),
        java.util.Arrays.copyOfRange(payload, valueOffset, valueOffset + valueLength));
  }

  public long entries() {
    return count;
  }

  public long lastExamined() {
    return lastExamined;
  }

  public boolean done() {
    return done;
  }

  public long viewSequence() {
    return viewSequence;
  }

  public long offsetReached() {
    return offsetReached;
  }

  public long viewBytes() {
    return viewBytes;
  }
}

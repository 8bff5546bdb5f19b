package org.fawnpack.kv.scan;

import org.fawnpack.kv.store.KeyRange;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.MalformedFrameException;

/**
 * One SCAN request: the next page of the entries in {@code range} (ring positions, inside one
 * arc) whose user keys start with {@code prefix}, after sequence number {@code afterSequence},
 * of at most about {@code pageBytes} of keys and values (one larger entry comes alone). The
 * {@code scanId} names the reader's scan at the back-end, which keeps its view between pages.
 * A {@code cut} above 0 asks for the entries as of that sequence number (a point-in-time read,
 * which any member of the chain holding the cut may serve); 0 for the tail's view of now.
 */
public record ScanRequest(long scanId, KeyRange range, long afterSequence, int pageBytes,
    byte[] prefix, long cut) {
  /** The largest page a back-end serves (a larger value is refused by name). */
  public static final int MAX_PAGE_BYTES = 8 << 20;
  /** The longest key prefix (the engine's key limit less the ring position). */
  public static final int MAX_PREFIX_BYTES = 65_536 - 8;

  public ScanRequest {
    if (cut < 0) {
      throw new IllegalArgumentException("a scan's cut is a sequence number, or 0: " + cut);
    }
    if (afterSequence < 0) {
      throw new IllegalArgumentException("a scan goes on after a sequence number of 0 or more,"
          + " not " + afterSequence);
    }
    if (pageBytes < 1 || pageBytes > MAX_PAGE_BYTES) {
      throw new IllegalArgumentException("a scan page is 1.." + MAX_PAGE_BYTES + " bytes, not "
          + pageBytes);
    }
    if (prefix.length > MAX_PREFIX_BYTES) {
      throw new IllegalArgumentException("a key prefix of " + prefix.length
          + " bytes is longer than " + MAX_PREFIX_BYTES);
    }
  }

  public byte[] encode() {
    return new Frame.Payload().addLong(scanId).addLong(range.startExclusive())
        .addLong(range.endInclusive()).addLong(afterSequence).addLong(pageBytes)
        .addBytes(prefix).addLong(cut).toBytes();
  }

  /** Reads a SCAN payload; a field out of bounds is a malformed frame, named. */
  public static ScanRequest decode(Frame.Fields fields) throws MalformedFrameException {
    long scanId = fields.nextLong();
    KeyRange range = new KeyRange(fields.nextLong(), fields.nextLong());
    long after = fields.nextLong();
    long pageBytes = fields.nextLong();
    byte[] prefix = fields.nextBytes(MAX_PREFIX_BYTES, "the key prefix");
    long cut = fields.nextLong();
    fields.end();
    if (after < 0 || cut < 0 || pageBytes < 1 || pageBytes > MAX_PAGE_BYTES) {
      throw new MalformedFrameException("a SCAN after sequence " + after + " as of " + cut
          + " with pages of " + pageBytes + " bytes (1.." + MAX_PAGE_BYTES + ")");
    }
    return new ScanRequest(scanId, range, after, (int) pageBytes, prefix, cut);
  }

  /**
   * Whether the user key inside {@code engineKey} (after its ring position) passes the prefix
   * filter: read in place, since the tail filters every record it scans.
   */
  public boolean wantsEngineKey(byte[] engineKey) {
    return wantsEngineKey(java.nio.ByteBuffer.wrap(engineKey), 0, engineKey.length);
  }

  /**
   * As {@link #wantsEngineKey(byte[])}, for an engine key lying at absolute {@code index} in
   * {@code b} (a log read in place, off the heap); reads by index only.
   */
  public boolean wantsEngineKey(java.nio.ByteBuffer b, int index, int length) {
    int userKeyLength = length - Long.BYTES;
    if (userKeyLength < prefix.length) {
      return false;
    }
    int from = index + Long.BYTES;
    for (int i = 0; i < prefix.length; i++) {
      if (b.get(from + i) != prefix[i]) {
        return false;
      }
    }
    return true;
  }
}

package org.fawnpack.kv.scan;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.MalformedFrameException;

/**
 * A SCAN_PAGE: entries in sequence order; {@code lastExamined}, the sequence number the next
 * page goes on after (the last record read, live or not); {@code done} when the view has no
 * more; the view's last sequence number ({@code viewSequence}: what the scan sees); and how far
 * into the view's log bytes the reading came ({@code offsetReached} of {@code viewBytes}), for
 * a reader's progress.
 */
public record ScanPage(List<ScanEntry> entries, long lastExamined, boolean done,
    long viewSequence, long offsetReached, long viewBytes) {

  /** A user key and its value. */
  public record ScanEntry(byte[] key, byte[] value) {}

  /**
   * The SCAN_PAGE payload: the five numbers above and the entry count (8 bytes each), then
   * each entry's key and value, each a 4-byte length and its bytes ({@link Frame.Payload}'s
   * layout, written here into one array of the exact size: a page is up to megabytes).
   */
  public byte[] encode() {
    long size = 6L * Long.BYTES;
    for (ScanEntry e : entries) {
      size += 2L * Integer.BYTES + e.key().length + e.value().length;
    }
    if (size > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("a scan page of " + size + " bytes");
    }
    ByteBuffer out = ByteBuffer.allocate((int) size);
    out.putLong(lastExamined).putLong(done ? 1 : 0).putLong(viewSequence)
        .putLong(offsetReached).putLong(viewBytes).putLong(entries.size());
    for (ScanEntry e : entries) {
      out.putInt(e.key().length).put(e.key()).putInt(e.value().length).put(e.value());
    }
    return out.array();
  }

  public static ScanPage decode(Frame frame) throws MalformedFrameException {
    Frame.Fields fields = frame.fields();
    long lastExamined = fields.nextLong();
    long done = fields.nextLong();
    long viewSequence = fields.nextLong();
    long offsetReached = fields.nextLong();
    long viewBytes = fields.nextLong();
    long count = fields.nextLong();
    if (count < 0 || count > frame.payload().length / 8) {
      throw new MalformedFrameException("a SCAN_PAGE says it holds " + count + " entries in "
          + frame.payload().length + " bytes");
    }
    List<ScanEntry> entries = new ArrayList<>((int) count);
    for (long i = 0; i < count; i++) {
      entries.add(new ScanEntry(fields.nextBytes(frame.payload().length, "a key"),
          fields.nextBytes(frame.payload().length, "a value")));
    }
    fields.end();
    return new ScanPage(entries, lastExamined, done == 1, viewSequence, offsetReached,
        viewBytes);
  }
}

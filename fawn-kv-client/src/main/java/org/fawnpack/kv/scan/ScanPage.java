package org.fawnpack.kv.scan;

import java.util.ArrayList;
import java.util.List;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.MalformedFrameException;

/**
 * A SCAN_PAGE: entries in sequence order; {@code lastExamined}, the sequence number the next
 * page goes on after (the last record read, live or not); {@code done} when the view has no
 * more; the view's last sequence number ({@code viewSequence}: what the scan sees); and how far
 * into the view's log bytes the reading came ({@code offsetReached} of {@code viewBytes}), for
 * a reader's progress. A back-end writes pages with {@link ScanPageWriter}: the five numbers
 * and the entry count (8 bytes each), then each entry's key and value, each a 4-byte length
 * and its bytes.
 */
public record ScanPage(List<ScanEntry> entries, long lastExamined, boolean done,
    long viewSequence, long offsetReached, long viewBytes) {

  /** A user key and its value. */
  public record ScanEntry(byte[] key, byte[] value) {}

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

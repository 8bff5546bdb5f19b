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

  /** Every entry of the page, copied out ({@link ScanPageReader} reads them in place). */
  public static ScanPage decode(Frame frame) throws MalformedFrameException {
    ScanPageReader r = new ScanPageReader(frame);
    List<ScanEntry> entries = new ArrayList<>((int) r.entries());
    while (r.advance()) {
      entries.add(r.copy());
    }
    return new ScanPage(entries, r.lastExamined(), r.done(), r.viewSequence(),
        r.offsetReached(), r.viewBytes());
  }
}

package org.fawnpack.kv.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * What range marks ({@link RecordFormat#KIND_RANGE}) mean to an index rebuilt from the log: a
 * mark at offset m with range R drops every key whose current record lies before m with a ring
 * position outside R. Records after the mark are judged by later marks only, so a key that a
 * split moved out and a later absorb or merge brought back (its new record after the mark)
 * stays, and one moved out for good does not come back.
 */
final class RangeMarks {

  /**
   * A range mark at {@code offset}: from there on the file holds {@code range}'s keys; its
   * sequence field, the file's last sequence number when it was written.
   */
  record Mark(long offset, KeyRange range, long sequence) {}

  private RangeMarks() {}

  /**
   * Drops from {@code index} the keys {@code marks} (in log order) rule out: one read of a
   * record's key head per key the index holds before the last mark. Returns how many went.
   */
  static int apply(HashIndex index, DataLog log, List<Mark> marks) throws IOException {
    if (marks.isEmpty()) {
      return 0;
    }
    long lastMark = marks.get(marks.size() - 1).offset();
    ByteBuffer head = ByteBuffer.allocate(RecordFormat.HEADER_BYTES + Long.BYTES);
    int dropped = 0;
    for (int slot = 0; slot < index.capacity(); slot++) {
      if (!index.isValid(slot) || index.offset(slot) >= lastMark) {
        continue;
      }
      long offset = index.offset(slot);
      if (ruledOut(offset, positionAt(log, offset, head), marks)) {
        index.remove(slot);
        dropped++;
      }
    }
    return dropped;
  }

  /** Whether a mark after {@code offset} leaves {@code position} out of its range. */
  static boolean ruledOut(long offset, long position, List<Mark> marks) {
    for (Mark mark : marks) {
      if (offset < mark.offset() && !mark.range().contains(position)) {
        return true;
      }
    }
    return false;
  }

  /**
   * For a copy that keeps records in their order (a compaction below a floor): appends to
   * {@code to} the marks {@code scanner} passed since {@code copied} of them were, where they
   * lay among the records copied so far, and adds them to {@code copiedMarks} at their new
   * offsets. Returns how many it has passed.
   */
  static int copyPassed(LogScanner scanner, int copied, DataLog to, List<Mark> copiedMarks)
      throws IOException {
    if (scanner.markCount() == copied) {
      return copied; // the usual case, once per record copied: nothing new
    }
    List<Mark> passed = scanner.marks();
    for (int i = copied; i < passed.size(); i++) {
      Mark mark = passed.get(i);
      long offset = to.appendRangeMark(mark.range(), mark.sequence());
      copiedMarks.add(new Mark(offset, mark.range(), mark.sequence()));
    }
    return passed.size();
  }

  private static long positionAt(DataLog log, long offset, ByteBuffer head)
      throws IOException {
    head.clear();
    int read = log.read(offset, head);
    int keyLength = RecordFormat.keyLength(head, 0);
    if (read < RecordFormat.HEADER_BYTES + Math.min(keyLength, Long.BYTES)) {
      throw new CorruptLogException(log.path(), offset, "record the index points at",
          "a whole record", read + " bytes");
    }
    return RingPositions.of(head, RecordFormat.HEADER_BYTES, keyLength);
  }
}

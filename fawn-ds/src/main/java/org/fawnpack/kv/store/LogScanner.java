package org.fawnpack.kv.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * Walks a data log front to back in large sequential reads and hands out each record that
 * passes its checks (plausible header, whole record present, CRC32C). Bytes that fail are
 * skipped by looking for the next valid record at the following 8-byte boundaries; each skipped
 * region is reported to the {@link DamageListener}, with whether it runs to the end of the log
 * (a torn or corrupt tail) or valid records follow it (damage in the middle).
 *
 * <p>The current record is exposed in place ({@link #buffer()}, {@link #recordStart()}): it is
 * valid until the next call to {@link #next()}. Not thread-safe.
 *
 * <p>Range marks ({@link RecordFormat#KIND_RANGE}) are not handed out: every reader of puts and
 * deletes passes over them, and the one that rebuilds an index asks for them afterwards
 * ({@link #marks()}).
 */
final class LogScanner {

  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(LogScanner.class);

  /** Told about bytes that are not a valid record. */
  interface DamageListener {
    void damaged(long from, long to, boolean tail) throws IOException;
  }

  static final int DEFAULT_READ_BYTES = 4 << 20;

  private final DataLog log;
  private final FileChannel channel;
  private final long end;
  private final DamageListener listener;
  /** Whether the read buffer lies off the heap (see {@link #forView}). */
  private final boolean direct;
  private ByteBuffer buffer;
  /** Log offset of buffer index 0. */
  private long bufferBase;
  /** Log offset of the next byte to consider. */
  private long position;
  private int recordStart = -1;
  private int recordLength;
  /** The range marks passed so far, in log order. */
  private final java.util.List<RangeMarks.Mark> marks = new java.util.ArrayList<>();

  /**
   * A scan of an open log (compaction, split, merge, scan): damage there was found and
   * reported when the log was opened, so it is logged at WARN and skipped.
   */
  static LogScanner skippingDamage(DataLog log, long from, long end) {
    return new LogScanner(log, from, end, (a, b, tail) ->
        LOG.warn("{}: skipping damaged bytes {}..{} in a scan", log.path(), a, b));
  }

  /**
   * As {@link #skippingDamage}, reading into a buffer off the heap: a scan whose records are
   * read in place and copied out from there (a tail's scan pages) then costs one copy from the
   * page cache, where a heap buffer costs two (the JDK reads a file into a temporary direct
   * buffer and copies that into the array). Records are then read through the buffer's
   * absolute accessors only ({@link #buffer()} has no array).
   */
  static LogScanner forView(DataLog log, long from, long end) {
    return new LogScanner(log, from, end, (a, b, tail) ->
        LOG.warn("{}: skipping damaged bytes {}..{} in a scan", log.path(), a, b), true);
  }

  /** Scans {@code log}'s bytes {@code [from, end)}; {@code end} must be in the file. */
  LogScanner(DataLog log, long from, long end, DamageListener listener) {
    this(log, from, end, listener, false);
  }

  private LogScanner(DataLog log, long from, long end, DamageListener listener,
      boolean direct) {
    this.log = log;
    this.channel = log.channel();
    this.end = end;
    this.listener = listener;
    this.direct = direct;
    this.position = from;
    this.bufferBase = from;
    // A short range (a small arc's file) gets a buffer of its size, not of a whole read.
    this.buffer = allocate((int) Math.max(RecordFormat.HEADER_BYTES,
        Math.min(DEFAULT_READ_BYTES, end - from)));
    this.buffer.limit(0);
  }

  private ByteBuffer allocate(int bytes) {
    return direct ? ByteBuffer.allocateDirect(bytes) : ByteBuffer.allocate(bytes);
  }

  /** Moves to the next valid record; false at the end of the scanned range. */
  boolean next() throws IOException {
    if (recordStart >= 0) {
      position += recordLength;
      recordStart = -1;
    }
    long damageFrom = -1;
    while (position < end) {
      if (validAt(position)) {
        if (damageFrom >= 0) {
          listener.damaged(damageFrom, position, false);
          damageFrom = -1;
        }
        int start = (int) (position - bufferBase);
        int length = RecordFormat.alignedLength(RecordFormat.keyLength(buffer, start),
            RecordFormat.valueLength(buffer, start));
        if (RecordFormat.kind(buffer, start) == RecordFormat.KIND_RANGE) {
          marks.add(new RangeMarks.Mark(position, RecordFormat.rangeOf(buffer, start),
              RecordFormat.sequence(buffer, start)));
          position += length;
          continue;
        }
        recordStart = start;
        recordLength = length;
        return true;
      }
      if (damageFrom < 0) {
        damageFrom = position;
      }
      position += RecordFormat.ALIGNMENT;
    }
    if (damageFrom >= 0) {
      listener.damaged(damageFrom, end, true);
    }
    return false;
  }

  /**
   * Moves to the next record only when it lies wholly in the bytes already read and is valid:
   * no read, no damage report. False (nothing consumed) otherwise; {@link #next()} then
   * handles it. Lets a caller gather several records that stay addressable in {@link #buffer()}.
   */
  boolean nextInBuffer() {
    long at = recordStart >= 0 ? position + recordLength : position;
    int i = (int) (at - bufferBase);
    if (at >= end || at < bufferBase || i + RecordFormat.HEADER_BYTES > buffer.limit()
        || !RecordFormat.plausibleHeader(buffer, i)
        || RecordFormat.kind(buffer, i) == RecordFormat.KIND_RANGE) {
      return false; // next() reads it, and passes over a mark
    }
    int aligned = RecordFormat.alignedLength(RecordFormat.keyLength(buffer, i),
        RecordFormat.valueLength(buffer, i));
    if (at + aligned > end || i + aligned > buffer.limit()
        || !RecordFormat.crcMatches(buffer, i, log.positionTag(at))) {
      return false;
    }
    position = at;
    recordStart = i;
    recordLength = aligned;
    return true;
  }

  /**
   * Fills {@code batch} with the next records (at least one, unless the range is done), all
   * addressable in {@link #buffer()} until the next call; false at the end of the range.
   */
  boolean nextBatch(RecordBatch batch) throws IOException {
    if (!next()) {
      return false;
    }
    batch.clear(buffer);
    do {
      batch.add(this);
    } while (!batch.full() && nextInBuffer());
    return true;
  }

  private boolean validAt(long at) throws IOException {
    if (!fill(at, RecordFormat.HEADER_BYTES)) {
      return false;
    }
    int i = (int) (at - bufferBase);
    if (!RecordFormat.plausibleHeader(buffer, i)) {
      return false;
    }
    // The padding is written with the record: a record without it is torn.
    int aligned = RecordFormat.alignedLength(RecordFormat.keyLength(buffer, i),
        RecordFormat.valueLength(buffer, i));
    if (!fill(at, aligned)) {
      return false;
    }
    return RecordFormat.crcMatches(buffer, (int) (at - bufferBase), log.positionTag(at));
  }

  /** Makes {@code [at, at+length)} readable in the buffer; false when the log ends first. */
  private boolean fill(long at, int length) throws IOException {
    if (at + length > end) {
      return false;
    }
    if (at >= bufferBase && at + length <= bufferBase + buffer.limit()) {
      return true;
    }
    if (length > buffer.capacity()) {
      buffer = allocate(Math.max(length, buffer.capacity() * 2));
    }
    buffer.clear();
    bufferBase = at;
    int wanted = (int) Math.min(buffer.capacity(), end - at);
    buffer.limit(wanted);
    FileIo.readFully(channel, buffer, at);
    buffer.flip();
    return true;
  }

  ByteBuffer buffer() {
    return buffer;
  }

  /** How many range marks the scan passed over so far. */
  int markCount() {
    return marks.size();
  }

  /** The range marks the scan passed over so far, in log order. */
  java.util.List<RangeMarks.Mark> marks() {
    return java.util.Collections.unmodifiableList(marks);
  }

  /** Index in {@link #buffer()} of the current record's first header byte. */
  int recordStart() {
    return recordStart;
  }

  /** The current record's length in the log, padding included. */
  int recordLength() {
    return recordLength;
  }

  /** The current record's log offset. */
  long offset() {
    return position;
  }

  byte kind() {
    return RecordFormat.kind(buffer, recordStart);
  }

  /** The position tag the current record carries (see {@link RecordFormat#positionTag}). */
  int positionTag() {
    return log.positionTag(position);
  }

  long sequence() {
    return RecordFormat.sequence(buffer, recordStart);
  }

  /** {@link KeyHash} of the current record's key, computed in place. */
  long keyHash() {
    int keyLength = RecordFormat.keyLength(buffer, recordStart);
    if (direct) {
      return KeyHash.of(buffer, recordStart + RecordFormat.HEADER_BYTES, keyLength);
    }
    return KeyHash.of(buffer.array(), buffer.arrayOffset() + recordStart + RecordFormat.HEADER_BYTES,
        keyLength);
  }

  byte[] key() {
    return RecordFormat.copy(buffer, recordStart + RecordFormat.HEADER_BYTES,
        RecordFormat.keyLength(buffer, recordStart));
  }

  byte[] value() {
    int keyLength = RecordFormat.keyLength(buffer, recordStart);
    return RecordFormat.copy(buffer, recordStart + RecordFormat.HEADER_BYTES + keyLength,
        RecordFormat.valueLength(buffer, recordStart));
  }

  Path path() {
    return log.path();
  }
}

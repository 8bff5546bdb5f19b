package org.fawnpack.kv.store;

import java.io.IOException;
import java.nio.channels.FileChannel;

/**
 * The sequence floor a log's header promises: the lowest next sequence number a reopen may hand
 * out. A copy that drops tombstones may drop the highest sequence number too, so it raises the
 * floor, and a reopen must not hand that number out again. Raised in place (the header's 32
 * bytes at offset 0) and forced with the file's next sync; version 1 logs keep no floor. The
 * header's format version is raised here too, the one other field that changes in place.
 */
final class LogHeaderFloor {
  private final FileChannel channel;
  /** Guarded by this. */
  private LogFileHeader header;
  /** The header's floor, read without the lock (a sync checks it for a change). */
  private volatile long floor;

  LogHeaderFloor(FileChannel channel, LogFileHeader header) {
    this.channel = channel;
    this.header = header;
    this.floor = header.sequenceFloor();
  }

  /** The lowest next sequence number the header promises (0 when it promises none). */
  long get() {
    return floor;
  }

  /**
   * Makes the header say the log may hold range marks (format version 3), before the first is
   * appended; forced with it. A version 1 log cannot: its records carry no position tag.
   */
  synchronized void allowRangeMarks() throws IOException {
    if (header.version() == LogFileHeader.FIRST_FORMAT_VERSION) {
      throw new IllegalStateException("a version 1 log takes no range mark: compact it first");
    }
    if (header.version() < LogFileHeader.RANGE_MARKS_VERSION) {
      LogFileHeader next = header.withVersion(LogFileHeader.RANGE_MARKS_VERSION);
      FileIo.writeFully(channel, next.encode(), 0);
      header = next;
    }
  }

  /** Raises the floor to {@code raised} unless it is there already or the format keeps none. */
  synchronized void raise(long raised) throws IOException {
    if (header.version() == LogFileHeader.FIRST_FORMAT_VERSION
        || raised <= header.sequenceFloor()) {
      return;
    }
    LogFileHeader next = header.withSequenceFloor(raised);
    FileIo.writeFully(channel, next.encode(), 0);
    header = next;
    floor = raised;
  }
}

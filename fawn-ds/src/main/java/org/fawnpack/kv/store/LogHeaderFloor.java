package org.fawnpack.kv.store;

import java.io.IOException;
import java.nio.channels.FileChannel;

/**
 * The sequence floor a log's header promises: the lowest next sequence number a reopen may hand
 * out. A copy that drops tombstones may drop the highest sequence number too, so it raises the
 * floor, and a reopen must not hand that number out again. Raised in place (the header's 32
 * bytes at offset 0) and forced with the file's next sync; version 1 logs keep no floor.
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

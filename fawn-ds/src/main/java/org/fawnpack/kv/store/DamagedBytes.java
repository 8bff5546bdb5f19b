package org.fawnpack.kv.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * What recovery does with bytes that hold no valid record: counts the records they held, and
 * keeps a damaged tail in a side file before the log is cut, as databases keep a corrupt
 * write-ahead-log tail for whoever wants to look at it.
 */
final class DamagedBytes {

  private DamagedBytes() {}

  /**
   * The records whose headers can still be read in {@code [from, to)}, walked from {@code from}
   * by their lengths; at least 1, since the log holds nothing but records.
   */
  static long recordsIn(DataLog log, long from, long to) throws IOException {
    ByteBuffer header = ByteBuffer.allocate(RecordFormat.HEADER_BYTES);
    long records = 0;
    long at = from;
    while (at + RecordFormat.HEADER_BYTES <= to) {
      header.clear();
      FileIo.readFully(log.channel(), header, at);
      if (!RecordFormat.plausibleHeader(header, 0)) {
        break;
      }
      records++;
      at += RecordFormat.alignedLength(RecordFormat.keyLength(header, 0),
          RecordFormat.valueLength(header, 0));
    }
    return Math.max(1, records);
  }

  /**
   * Copies the log's bytes {@code [from, to)} to a new side file next to it, forced with its
   * directory entry, and returns its path: {@code <log>.tail-<from>.corrupt} (or {@code -2},
   * {@code -3}, ... when a file of that name is already there).
   */
  static Path keepTail(DataLog log, long from, long to) throws IOException {
    Path side = null;
    for (int n = 1; side == null || Files.exists(side); n++) {
      side = StoreFiles.cutTail(log.path(), from, n);
    }
    try (FileChannel out = FileChannel.open(side, StandardOpenOption.CREATE_NEW,
        StandardOpenOption.WRITE)) {
      long at = from;
      while (at < to) {
        at += log.channel().transferTo(at, to - at, out);
      }
      out.force(true);
    }
    Directories.syncParentOf(side);
    return side;
  }
}

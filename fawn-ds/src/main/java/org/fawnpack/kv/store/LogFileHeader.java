package org.fawnpack.kv.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;
import java.util.zip.CRC32C;

/**
 * The 32-byte header of a data log file, and the lock that makes its opener the only writer.
 *
 * <pre>
 *  (big-endian)
 *   0  8  magic "FAWN-DS1"
 *   8  4  format version: 2 (records carry a position tag); 3 (as 2, and the log may hold range
 *          marks: {@link RangeMarks}, which a reader of version 2 would take for damage);
 *          1 is still read and appended to
 *  12  4  CRC32C of bytes 0-11 and 16-31
 *  16  8  log id (random; ties an index checkpoint and every record's tag to this very file)
 *  24  8  sequence floor: the next sequence number is at least this (0 in version 1)
 * </pre>
 */
record LogFileHeader(int version, long logId, long sequenceFloor) {

  static final int BYTES = 32;
  static final int FORMAT_VERSION = 2;
  static final int FIRST_FORMAT_VERSION = 1;
  /** Set by a file's first range mark: older readers refuse it by name, not read it wrong. */
  static final int RANGE_MARKS_VERSION = 3;
  private static final byte[] MAGIC = "FAWN-DS1".getBytes(StandardCharsets.US_ASCII);

  /** A header for a new log: the current version, a random id, no floor. */
  static LogFileHeader fresh() {
    return new LogFileHeader(FORMAT_VERSION, ThreadLocalRandom.current().nextLong(), 0);
  }

  /** The same header in another format version. */
  LogFileHeader withVersion(int newVersion) {
    return new LogFileHeader(newVersion, logId, sequenceFloor);
  }

  /** The same header with a higher sequence floor. */
  LogFileHeader withSequenceFloor(long floor) {
    return new LogFileHeader(version, logId, floor);
  }

  ByteBuffer encode() {
    ByteBuffer b = ByteBuffer.allocate(BYTES);
    b.put(MAGIC).putInt(version).putInt(0).putLong(logId).putLong(sequenceFloor);
    b.putInt(12, crc(b));
    return b.flip();
  }

  /**
   * Reads and checks the header of {@code path}.
   *
   * @throws CorruptLogException naming the file, the field, what was expected and found
   */
  static LogFileHeader read(Path path, FileChannel channel) throws IOException {
    ByteBuffer b = ByteBuffer.allocate(BYTES);
    FileIo.readFully(channel, b, 0);
    return decode(path, b);
  }

  /** Checks and decodes the {@link #BYTES} header bytes of {@code path} held in {@code b}. */
  static LogFileHeader decode(Path path, ByteBuffer b) throws CorruptLogException {
    byte[] magic = new byte[MAGIC.length];
    b.get(0, magic);
    if (!Arrays.equals(magic, MAGIC)) {
      throw new CorruptLogException(path, 0, "file header magic",
          new String(MAGIC, StandardCharsets.US_ASCII),
          new String(magic, StandardCharsets.ISO_8859_1));
    }
    int version = b.getInt(8);
    if (version < FIRST_FORMAT_VERSION || version > RANGE_MARKS_VERSION) {
      throw new CorruptLogException(path, 8, "format version",
          FIRST_FORMAT_VERSION + ".." + RANGE_MARKS_VERSION, String.valueOf(version));
    }
    if (b.getInt(12) != crc(b)) {
      throw new CorruptLogException(path, 12, "file header CRC32C",
          Integer.toHexString(crc(b)), Integer.toHexString(b.getInt(12)));
    }
    return new LogFileHeader(version, b.getLong(16), b.getLong(24));
  }

  private static int crc(ByteBuffer header) {
    CRC32C crc = new CRC32C();
    crc.update(header.array(), 0, 12);
    crc.update(header.array(), 16, BYTES - 16);
    return (int) crc.getValue();
  }

  /** The tag a record at {@code offset} carries in this log (0 in a version 1 log). */
  int positionTag(long offset) {
    return version == FIRST_FORMAT_VERSION ? 0 : RecordFormat.positionTag(logId, offset);
  }

  /**
   * One writer per file: a lock held elsewhere fails the open, naming the file. The lock lives
   * as long as the channel (closing the channel releases it).
   */
  static void lockExclusively(Path path, FileChannel channel) throws IOException {
    try {
      if (channel.tryLock() == null) {
        throw new DatastoreLockedException(path, "another process");
      }
    } catch (OverlappingFileLockException e) {
      throw new DatastoreLockedException(path, "this process");
    }
  }
}

package org.fawnpack.kv.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One append-only data log file: a 32-byte file header, then records ({@link RecordFormat}).
 *
 * <pre>
 *  file header (big-endian)
 *   0  8  magic "FAWN-DS1"
 *   8  4  format version (1)
 *  12  4  CRC32C of bytes 0-11 and 16-31
 *  16  8  log id (random; ties an index checkpoint to this very file)
 *  24  8  reserved, 0
 *  32     first record
 * </pre>
 *
 * Appends go through one buffer and reach the file in large sequential writes. Reads are
 * positional and lock-free on the part already written; a read of the buffered tail takes the
 * append lock and copies from the buffer. Thread-safe.
 */
final class DataLog implements AutoCloseable {

  static final int HEADER_BYTES = 32;
  static final int FORMAT_VERSION = 1;
  private static final byte[] MAGIC = "FAWN-DS1".getBytes(StandardCharsets.US_ASCII);
  static final long MAX_BYTES = 0x1_0000_0000L * RecordFormat.ALIGNMENT;

  private volatile Path path;
  private final FileChannel channel;
  private final long logId;
  private final ReentrantLock appendLock = new ReentrantLock();
  private final ByteBuffer buffer;
  /** Bytes already handed to the file (the buffer holds what follows). */
  private volatile long written;

  private DataLog(Path path, FileChannel channel, long logId, long written, int bufferBytes) {
    this.path = path;
    this.channel = channel;
    this.logId = logId;
    this.written = written;
    // A heap buffer: records are encoded and checksummed in place without views.
    this.buffer = ByteBuffer.allocate(bufferBytes);
  }

  /** Creates a new empty log (the file must not exist). */
  static DataLog create(Path path, int bufferBytes) throws IOException {
    FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW,
        StandardOpenOption.READ, StandardOpenOption.WRITE);
    try {
      long logId = ThreadLocalRandom.current().nextLong();
      ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES);
      header.put(MAGIC).putInt(FORMAT_VERSION).putInt(0).putLong(logId).putLong(0);
      header.putInt(12, headerCrc(header));
      header.flip();
      writeFully(channel, header, 0);
      channel.force(true);
      return new DataLog(path, channel, logId, HEADER_BYTES, bufferBytes);
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  /** Opens an existing log; its length is taken as is (recovery decides what to keep). */
  static DataLog open(Path path, int bufferBytes) throws IOException {
    FileChannel channel = FileChannel.open(path, StandardOpenOption.READ,
        StandardOpenOption.WRITE);
    try {
      ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES);
      readFully(channel, header, 0);
      byte[] magic = new byte[MAGIC.length];
      header.get(0, magic);
      if (!java.util.Arrays.equals(magic, MAGIC)) {
        throw new CorruptLogException(path, 0, "file header magic",
            new String(MAGIC, StandardCharsets.US_ASCII),
            new String(magic, StandardCharsets.ISO_8859_1));
      }
      if (header.getInt(8) != FORMAT_VERSION) {
        throw new CorruptLogException(path, 8, "format version", String.valueOf(FORMAT_VERSION),
            String.valueOf(header.getInt(8)));
      }
      if (header.getInt(12) != headerCrc(header)) {
        throw new CorruptLogException(path, 12, "file header CRC32C",
            Integer.toHexString(headerCrc(header)), Integer.toHexString(header.getInt(12)));
      }
      return new DataLog(path, channel, header.getLong(16), channel.size(), bufferBytes);
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  private static int headerCrc(ByteBuffer header) {
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    ByteBuffer view = header.duplicate();
    crc.update(view.limit(12).position(0));
    view = header.duplicate();
    crc.update(view.limit(HEADER_BYTES).position(16));
    return (int) crc.getValue();
  }

  Path path() {
    return path;
  }

  long logId() {
    return logId;
  }

  /** The end of the log, buffered bytes included: where the next record goes. */
  long size() {
    appendLock.lock();
    try {
      return written + buffer.position();
    } finally {
      appendLock.unlock();
    }
  }

  /** Appends one record and returns its offset. */
  long append(byte kind, byte[] key, byte[] value, long sequence) throws IOException {
    int length = RecordFormat.alignedLength(key.length, value.length);
    appendLock.lock();
    try {
      long offset = reserve(length);
      if (length > buffer.capacity()) {
        ByteBuffer big = ByteBuffer.allocate(length);
        RecordFormat.encode(big, kind, key, value, sequence);
        big.flip();
        writeFully(channel, big, written);
        written += length;
      } else {
        RecordFormat.encode(buffer, kind, key, value, sequence);
      }
      return offset;
    } finally {
      appendLock.unlock();
    }
  }

  /** Appends a record already encoded (with its padding) in {@code src[from, from+length)}. */
  long appendEncoded(ByteBuffer src, int from, int length) throws IOException {
    appendLock.lock();
    try {
      long offset = reserve(length);
      if (length > buffer.capacity()) {
        writeFully(channel, src.duplicate().limit(from + length).position(from), written);
        written += length;
      } else {
        buffer.put(buffer.position(), src, from, length);
        buffer.position(buffer.position() + length);
      }
      return offset;
    } finally {
      appendLock.unlock();
    }
  }

  /** Makes room for {@code length} bytes; returns the offset they will have. */
  private long reserve(int length) throws IOException {
    long offset = written + buffer.position();
    if (offset + length > MAX_BYTES) {
      throw new IOException(path + ": a datastore log cannot grow past 32 GiB (offset "
          + offset + " + record " + length + " bytes); split the key range");
    }
    if (buffer.remaining() < length) {
      flushLocked();
      offset = written;
    }
    return offset;
  }

  /** Hands the buffered records to the operating system. */
  void flush() throws IOException {
    appendLock.lock();
    try {
      flushLocked();
    } finally {
      appendLock.unlock();
    }
  }

  private void flushLocked() throws IOException {
    if (buffer.position() == 0) {
      return;
    }
    buffer.flip();
    int length = buffer.remaining();
    writeFully(channel, buffer, written);
    buffer.clear();
    written += length;
  }

  /** Flushes and forces the file's data to the device. */
  void sync() throws IOException {
    flush();
    channel.force(false);
  }

  /**
   * Reads {@code dst.remaining()} bytes at {@code offset} (fewer at the end of the log);
   * returns how many. Bytes still in the append buffer are copied from it.
   */
  int read(long offset, ByteBuffer dst) throws IOException {
    int wanted = dst.remaining();
    if (offset + wanted <= written) {
      readFully(channel, dst, offset);
      return wanted;
    }
    appendLock.lock();
    try {
      long end = written + buffer.position();
      int n = (int) Math.max(0, Math.min(wanted, end - offset));
      int fromFile = (int) Math.max(0, Math.min(n, written - offset));
      if (fromFile > 0) {
        ByteBuffer part = dst.duplicate();
        part.limit(part.position() + fromFile);
        readFully(channel, part, offset);
        dst.position(dst.position() + fromFile);
      }
      int fromBuffer = n - fromFile;
      if (fromBuffer > 0) {
        int at = (int) (offset + fromFile - written);
        ByteBuffer view = buffer.duplicate();
        view.limit(at + fromBuffer).position(at);
        dst.put(view);
      }
      return n;
    } finally {
      appendLock.unlock();
    }
  }

  /** Cuts the file at {@code length} (recovery drops a torn tail). */
  void truncate(long length) throws IOException {
    appendLock.lock();
    try {
      flushLocked();
      channel.truncate(length);
      channel.force(true);
      written = length;
    } finally {
      appendLock.unlock();
    }
  }

  /** Bytes already in the file (records appended since sit in the buffer). */
  long flushedBytes() {
    return written;
  }

  /** Renames the file atomically (compaction's swap) and forces the directory entry. */
  void moveTo(Path target) throws IOException {
    java.nio.file.Files.move(path, target, java.nio.file.StandardCopyOption.ATOMIC_MOVE,
        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    path = target;
    Path dir = target.toAbsolutePath().getParent();
    try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
      d.force(true);
    }
  }

  FileChannel channel() {
    return channel;
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }

  static void writeFully(FileChannel channel, ByteBuffer src, long position) throws IOException {
    long at = position;
    while (src.hasRemaining()) {
      at += channel.write(src, at);
    }
  }

  static void readFully(FileChannel channel, ByteBuffer dst, long position) throws IOException {
    long at = position;
    while (dst.hasRemaining()) {
      int n = channel.read(dst, at);
      if (n < 0) {
        throw new java.io.EOFException("read past the end at offset " + at);
      }
      at += n;
    }
  }
}

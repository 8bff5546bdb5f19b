package org.fawnpack.kv.store;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One append-only data log file: a 32-byte file header, then records ({@link RecordFormat}).
 *
 * <pre>
 *  file header (big-endian)
 *   0  8  magic "FAWN-DS1"
 *   8  4  format version: 2 (records carry a position tag); 1 is still read and appended to
 *  12  4  CRC32C of bytes 0-11 and 16-31
 *  16  8  log id (random; ties an index checkpoint and every record's tag to this very file)
 *  24  8  sequence floor: the next sequence number is at least this (0 in version 1)
 *  32     first record
 * </pre>
 *
 * <p>The file is locked ({@link FileChannel#tryLock()}) while it is open: a second writer,
 * in another process or this one, is refused with {@link DatastoreLockedException}.
 *
 * <p>Appends are encoded into an append buffer. A full buffer is handed to a background writer
 * ({@link LogWriters}) and appending goes on in a second buffer, so the copy into the page cache
 * overlaps the caller's work; at most one write per log is in flight, so the file is always a
 * prefix of the log. After every {@code writebackBytes} reach the file, a background force
 * sends them on to the device, so dirty pages never pile up and an explicit {@link #sync()}
 * only waits for the last few megabytes (as RocksDB's {@code bytes_per_sync}); it adds
 * durability, never removes any.
 *
 * <p>Reads are positional and lock-free below {@link #flushedBytes()}; a read of the tail
 * takes the append lock and copies from the buffers. A background write or force that fails
 * makes every later append, flush and sync throw: the log's end on disk is then unknown.
 * Thread-safe.
 */
final class DataLog implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(DataLog.class);
  static final int HEADER_BYTES = 32;
  static final int FORMAT_VERSION = 2;
  static final int FIRST_FORMAT_VERSION = 1;
  private static final byte[] MAGIC = "FAWN-DS1".getBytes(StandardCharsets.US_ASCII);
  static final long MAX_BYTES = 0x1_0000_0000L * RecordFormat.ALIGNMENT;

  private volatile Path path;
  private final FileChannel channel;
  private final long logId;
  private final int version;
  /** Guarded by appendLock. */
  private long sequenceFloor;
  private final long writebackBytes;
  private final ReentrantLock appendLock = new ReentrantLock();

  // Guarded by appendLock. Invariant: bytes below handedOffBase (below bufferBase when
  // handedOffLength is 0) are in the file; when handedOffLength > 0,
  // handedOffBase + handedOffLength == bufferBase.
  /** Records being appended; index 0 is log offset {@code bufferBase}. */
  private ByteBuffer buffer;
  private long bufferBase;
  /** The buffer last handed to the writer: readable until it is reused (null before). */
  private ByteBuffer handedOff;
  private long handedOffBase;
  private int handedOffLength;
  /** The background write of {@code handedOff}, or null once it has been waited for. */
  private Future<Void> pendingWrite;

  /** Bytes already in the file: readers below it need no lock. */
  private volatile long written;
  /** File length at the last background force request; only the (serial) writes touch it. */
  private volatile long forceRequestedAt;
  private final AtomicBoolean forceRunning = new AtomicBoolean();
  private volatile Future<?> forceTask;
  private volatile IOException backgroundFailure;

  private DataLog(Path path, FileChannel channel, ByteBuffer header, long written,
      int bufferBytes, long writebackBytes) {
    this.path = path;
    this.channel = channel;
    this.logId = header.getLong(16);
    this.version = header.getInt(8);
    this.sequenceFloor = header.getLong(24);
    this.written = written;
    this.bufferBase = written;
    this.forceRequestedAt = written;
    this.writebackBytes = writebackBytes;
    // Direct buffers: the channel writes them as they are, where a heap buffer would first be
    // copied into a temporary direct one (a third copy of every byte on the write path).
    this.buffer = ByteBuffer.allocateDirect(bufferBytes);
  }

  /**
   * Creates a new empty log (the file must not exist), forcing the file and its directory
   * entry. {@code writebackBytes} 0 turns the background forces off.
   */
  static DataLog create(Path path, int bufferBytes, long writebackBytes) throws IOException {
    return create(path, FileChannel.open(path, StandardOpenOption.CREATE_NEW,
        StandardOpenOption.READ, StandardOpenOption.WRITE), bufferBytes, writebackBytes);
  }

  /** Same, on a channel opened by the caller (tests wrap it to inject I/O failures). */
  static DataLog create(Path path, FileChannel channel, int bufferBytes, long writebackBytes)
      throws IOException {
    try {
      lockExclusively(path, channel);
      ByteBuffer header = header(ThreadLocalRandom.current().nextLong(), 0);
      writeFully(channel, header.duplicate(), 0);
      channel.force(true);
      Directories.syncParentOf(path);
      return new DataLog(path, channel, header, HEADER_BYTES, bufferBytes,
          writebackBytes);
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  private static ByteBuffer header(long logId, long sequenceFloor) {
    ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES);
    header.put(MAGIC).putInt(FORMAT_VERSION).putInt(0).putLong(logId).putLong(sequenceFloor);
    header.putInt(12, headerCrc(header));
    return header.flip();
  }

  /**
   * One writer per file: a lock held elsewhere fails the open, naming the file. The lock lives
   * as long as the channel (closing the channel releases it).
   */
  private static FileLock lockExclusively(Path path, FileChannel channel) throws IOException {
    FileLock lock;
    try {
      lock = channel.tryLock();
    } catch (OverlappingFileLockException e) {
      throw new DatastoreLockedException(path, "this process");
    }
    if (lock == null) {
      throw new DatastoreLockedException(path, "another process");
    }
    return lock;
  }

  /** Opens an existing log; its length is taken as is (recovery decides what to keep). */
  static DataLog open(Path path, int bufferBytes, long writebackBytes) throws IOException {
    FileChannel channel = FileChannel.open(path, StandardOpenOption.READ,
        StandardOpenOption.WRITE);
    try {
      lockExclusively(path, channel);
      ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES);
      readFully(channel, header, 0);
      byte[] magic = new byte[MAGIC.length];
      header.get(0, magic);
      if (!java.util.Arrays.equals(magic, MAGIC)) {
        throw new CorruptLogException(path, 0, "file header magic",
            new String(MAGIC, StandardCharsets.US_ASCII),
            new String(magic, StandardCharsets.ISO_8859_1));
      }
      int version = header.getInt(8);
      if (version != FORMAT_VERSION && version != FIRST_FORMAT_VERSION) {
        throw new CorruptLogException(path, 8, "format version",
            FIRST_FORMAT_VERSION + " or " + FORMAT_VERSION, String.valueOf(version));
      }
      if (header.getInt(12) != headerCrc(header)) {
        throw new CorruptLogException(path, 12, "file header CRC32C",
            Integer.toHexString(headerCrc(header)), Integer.toHexString(header.getInt(12)));
      }
      return new DataLog(path, channel, header, channel.size(), bufferBytes,
          writebackBytes);
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

  int version() {
    return version;
  }

  /** The tag a record at {@code offset} carries in this log (0 in a version 1 log). */
  int positionTag(long offset) {
    return version == FIRST_FORMAT_VERSION ? 0 : RecordFormat.positionTag(logId, offset);
  }

  /** The lowest next sequence number the header promises (0 when it promises none). */
  long sequenceFloor() {
    appendLock.lock();
    try {
      return sequenceFloor;
    } finally {
      appendLock.unlock();
    }
  }

  /**
   * Records in the header that the next sequence number is at least {@code floor}: a copy that
   * drops tombstones may drop the highest sequence number too, and a reopen must not hand it
   * out again. Forced with the file's next sync. Version 1 logs keep no floor.
   */
  void raiseSequenceFloor(long floor) throws IOException {
    appendLock.lock();
    try {
      if (version == FIRST_FORMAT_VERSION || floor <= sequenceFloor) {
        return;
      }
      writeFully(channel, header(logId, floor), 0);
      sequenceFloor = floor;
    } finally {
      appendLock.unlock();
    }
  }

  /** The end of the log, buffered bytes included: where the next record goes. */
  long size() {
    appendLock.lock();
    try {
      return bufferBase + buffer.position();
    } finally {
      appendLock.unlock();
    }
  }

  /** Appends one record and returns its offset. */
  long append(byte kind, byte[] key, byte[] value, long sequence) throws IOException {
    int length = RecordFormat.alignedLength(key.length, value.length);
    appendLock.lock();
    try {
      throwBackgroundFailure();
      long offset = reserve(length);
      int tag = positionTag(offset);
      if (length > buffer.capacity()) {
        ByteBuffer big = ByteBuffer.allocate(length);
        RecordFormat.encode(big, kind, key, value, sequence, tag);
        writeDirectly(big.flip());
      } else {
        RecordFormat.encode(buffer, kind, key, value, sequence, tag);
      }
      return offset;
    } finally {
      appendLock.unlock();
    }
  }

  /**
   * Appends a record already encoded (with its padding) in {@code src[from, from+length)},
   * where it carried position tag {@code sourceTag}; it is retagged for its place here.
   */
  long appendEncoded(ByteBuffer src, int from, int length, int sourceTag) throws IOException {
    appendLock.lock();
    try {
      throwBackgroundFailure();
      long offset = reserve(length);
      int tag = positionTag(offset);
      if (length > buffer.capacity()) {
        ByteBuffer copy = ByteBuffer.allocate(length);
        copy.put(0, src, from, length);
        RecordFormat.retag(copy, 0, sourceTag, tag);
        writeDirectly(copy);
      } else {
        int at = buffer.position();
        buffer.put(at, src, from, length);
        RecordFormat.retag(buffer, at, sourceTag, tag);
        buffer.position(at + length);
      }
      return offset;
    } finally {
      appendLock.unlock();
    }
  }

  /** Makes room for {@code length} bytes; returns the offset they will have. */
  private long reserve(int length) throws IOException {
    long offset = bufferBase + buffer.position();
    if (offset + length > MAX_BYTES) {
      throw new IOException(path + ": a datastore log cannot grow past 32 GiB (offset "
          + offset + " + record " + length + " bytes); split the key range");
    }
    if (buffer.remaining() < length) {
      handOff();
      offset = bufferBase;
    }
    return offset;
  }

  /** A record bigger than the buffer goes to the file at once, after everything before it. */
  private void writeDirectly(ByteBuffer record) throws IOException {
    awaitWrite();
    handedOffLength = 0;
    int length = record.remaining();
    writeFully(channel, record, bufferBase);
    bufferBase += length;
    written = bufferBase;
  }

  /**
   * Gives the filled part of the buffer to the background writer and continues in the other
   * buffer. Waits first for the previous write, so writes reach the file in log order.
   */
  private void handOff() throws IOException {
    if (buffer.position() == 0) {
      return;
    }
    awaitWrite();
    ByteBuffer full = buffer;
    ByteBuffer next = handedOff != null ? handedOff : ByteBuffer.allocateDirect(full.capacity());
    long base = bufferBase;
    int length = full.position();
    handedOff = full;
    handedOffBase = base;
    handedOffLength = length;
    buffer = next.clear();
    bufferBase = base + length;
    // The writer consumes a view; readers copy from the buffer by absolute index meanwhile.
    ByteBuffer view = full.duplicate().flip();
    pendingWrite = LogWriters.executor().submit(() -> writeInBackground(view, base));
  }

  private Void writeInBackground(ByteBuffer view, long base) throws IOException {
    long end = base + view.remaining();
    try {
      writeFully(channel, view, base);
    } catch (IOException e) {
      failInBackground(e);
      throw e;
    }
    written = end;
    if (writebackBytes > 0 && end - forceRequestedAt >= writebackBytes
        && forceRunning.compareAndSet(false, true)) {
      forceRequestedAt = end;
      forceTask = LogWriters.executor().submit(this::forceInBackground);
    }
    return null;
  }

  private void forceInBackground() {
    try {
      channel.force(false);
    } catch (IOException e) {
      failInBackground(e);
    } finally {
      forceRunning.set(false);
    }
  }

  private void failInBackground(IOException e) {
    if (channel.isOpen() && backgroundFailure == null) {
      backgroundFailure = e;
      LOG.error("{}: a background write or force of the log failed; appends to it fail from "
          + "now on", path, e);
    }
  }

  private void throwBackgroundFailure() throws IOException {
    IOException failure = backgroundFailure;
    if (failure != null) {
      throw new IOException(path + ": an earlier background write or force of this log failed,"
          + " so its end on disk is unknown", failure);
    }
  }

  /** Waits for the write in flight, if any; its failure is thrown here. */
  private void awaitWrite() throws IOException {
    Future<Void> write = pendingWrite;
    if (write == null) {
      return;
    }
    try {
      write.get();
    } catch (ExecutionException e) {
      throw new IOException(path + ": background write of the log failed", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException(path + ": interrupted waiting for a log write");
    }
    pendingWrite = null;
  }

  /** Hands every appended record to the operating system and waits until it is there. */
  void flush() throws IOException {
    appendLock.lock();
    try {
      throwBackgroundFailure();
      handOff();
      awaitWrite();
    } finally {
      appendLock.unlock();
    }
  }

  /** Flushes and forces the file's data to the device. */
  void sync() throws IOException {
    flush();
    channel.force(false);
  }

  /**
   * Reads {@code dst.remaining()} bytes at {@code offset} (fewer at the end of the log);
   * returns how many. Bytes not yet in the file are copied from the buffers.
   */
  int read(long offset, ByteBuffer dst) throws IOException {
    int wanted = dst.remaining();
    if (offset + wanted <= written) {
      readFully(channel, dst, offset);
      return wanted;
    }
    appendLock.lock();
    try {
      long end = Math.min(offset + wanted, bufferBase + buffer.position());
      long inFile = handedOffLength > 0 ? handedOffBase : bufferBase;
      long at = offset;
      if (at < Math.min(end, inFile)) {
        ByteBuffer part = dst.duplicate();
        part.limit(part.position() + (int) (Math.min(end, inFile) - at));
        readFully(channel, part, at);
        dst.position(part.position());
        at = Math.min(end, inFile);
      }
      if (handedOffLength > 0) {
        at = copyFrom(handedOff, handedOffBase, at, end, dst);
      }
      copyFrom(buffer, bufferBase, at, end, dst);
      return (int) Math.max(0, end - offset);
    } finally {
      appendLock.unlock();
    }
  }

  /** Copies the part of log range [at, end) that {@code src} holds from {@code base} on. */
  private static long copyFrom(ByteBuffer src, long base, long at, long end, ByteBuffer dst) {
    long from = Math.max(at, base);
    long to = Math.min(end, base + src.position());
    if (from >= to || from != at) {
      return at;
    }
    dst.put(dst.position(), src, (int) (from - base), (int) (to - from));
    dst.position(dst.position() + (int) (to - from));
    return to;
  }

  /** Cuts the file at {@code length} (recovery drops a torn tail). */
  void truncate(long length) throws IOException {
    appendLock.lock();
    try {
      handOff();
      awaitWrite();
      handedOffLength = 0;
      channel.truncate(length);
      channel.force(true);
      bufferBase = length;
      written = length;
      forceRequestedAt = length;
    } finally {
      appendLock.unlock();
    }
  }

  /** Bytes already in the file (records appended since sit in the buffers). */
  long flushedBytes() {
    return written;
  }

  /** Renames the file atomically (compaction's swap) and forces the directory entry. */
  void moveTo(Path target) throws IOException {
    java.nio.file.Files.move(path, target, java.nio.file.StandardCopyOption.ATOMIC_MOVE,
        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    path = target;
    Directories.syncParentOf(target);
  }

  FileChannel channel() {
    return channel;
  }

  /**
   * Waits for the background write and force of this log, then closes the file. Appends not
   * flushed are dropped: callers flush or sync first.
   */
  @Override
  public void close() throws IOException {
    appendLock.lock();
    try {
      awaitWrite();
    } catch (IOException e) {
      LOG.warn("{}: closing after a failed background write", path, e);
    } finally {
      appendLock.unlock();
    }
    Future<?> force = forceTask;
    if (force != null) {
      try {
        force.get();
      } catch (ExecutionException e) {
        LOG.warn("{}: closing after a failed background force", path, e.getCause());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException(path + ": interrupted waiting for a log force");
      }
    }
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

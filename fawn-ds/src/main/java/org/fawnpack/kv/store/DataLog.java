package org.fawnpack.kv.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One append-only data log file: a 32-byte file header ({@link LogFileHeader}: magic, format
 * version, log id, sequence floor), then records ({@link RecordFormat}). The file is locked
 * while it is open: a second writer, in another process or this one, is refused with
 * {@link DatastoreLockedException}.
 *
 * <p>Appends are encoded into an append buffer. A full buffer is handed to a background writer
 * ({@link LogWriters}) and appending goes on in a second buffer, so the copy into the page cache
 * overlaps the caller's work; at most one write per log is in flight, so the file is always a
 * prefix of the log. The buffers are {@link AppendBuffers}, called under this log's append
 * lock. After every {@code writebackBytes} reach the file, a background force sends them on to
 * the device, so dirty pages never pile up and an explicit {@link #sync()} only waits for the
 * last few megabytes (as RocksDB's {@code bytes_per_sync}); it adds durability, never removes
 * any. A flush (every sync's first step) writes what the buffer holds on its own thread, and a
 * force is skipped when nothing reached the file since the last.
 *
 * <p>Reads are positional and lock-free below {@link #flushedBytes()}; a read of the tail
 * takes the append lock and copies from the buffers. A write or force that fails (in the
 * background or in a flush) makes every later append, flush and sync throw: the log's end on
 * disk is then unknown. Thread-safe.
 */
final class DataLog implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(DataLog.class);
  static final int HEADER_BYTES = LogFileHeader.BYTES;
  static final long MAX_BYTES = 0x1_0000_0000L * RecordFormat.ALIGNMENT;

  private volatile Path path;
  private final OpenLogs.Claim claim;
  private final FileChannel channel;
  private final long logId;
  private final int version;
  private final LogHeaderFloor floor;
  private final ReentrantLock appendLock = new ReentrantLock();
  /** Guarded by appendLock, but for {@link AppendBuffers#written()}. */
  private final AppendBuffers buffers;
  /** The bytes in the file and the header's floor when {@link #forceData} last forced. */
  private final AtomicLong forcedEnd = new AtomicLong(-1);
  private volatile long forcedFloor = -1;
  private final Writeback writeback;

  /** Use {@link DataLogFiles}: it claims, locks and checks the file first. */
  DataLog(Path path, OpenLogs.Claim claim, FileChannel channel, LogFileHeader header,
      long written, int bufferBytes, long writebackBytes) {
    this.path = path;
    this.channel = channel;
    this.claim = claim;
    this.floor = new LogHeaderFloor(channel, header);
    this.logId = header.logId();
    this.version = header.version();
    this.writeback = new Writeback(channel, writebackBytes, written, this::path);
    this.buffers = new AppendBuffers(channel, writeback, this::path, written, bufferBytes);
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
    return version == LogFileHeader.FIRST_FORMAT_VERSION ? 0
        : RecordFormat.positionTag(logId, offset);
  }

  /** The lowest next sequence number the header promises (0 when it promises none). */
  long sequenceFloor() {
    return floor.get();
  }

  /** See {@link LogHeaderFloor}: forced with the file's next sync. */
  void raiseSequenceFloor(long raised) throws IOException {
    floor.raise(raised);
  }

  /** Appends a range mark ({@link RangeMarks}), the header raised to version 3 first. */
  long appendRangeMark(KeyRange holds, long lastSequence) throws IOException {
    floor.allowRangeMarks();
    return append(RecordFormat.KIND_RANGE, RecordFormat.rangeKey(holds), new byte[0],
        lastSequence);
  }

  /** The end of the log, buffered bytes included: where the next record goes. */
  long size() {
    appendLock.lock();
    try {
      return buffers.end();
    } finally {
      appendLock.unlock();
    }
  }

  /** Appends one record and returns its offset. */
  long append(byte kind, byte[] key, byte[] value, long sequence) throws IOException {
    int length = RecordFormat.alignedLength(key.length, value.length);
    appendLock.lock();
    try {
      writeback.throwIfFailed();
      long offset = reserve(length);
      buffers.put(kind, key, value, sequence, positionTag(offset), length);
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
      writeback.throwIfFailed();
      long offset = reserve(length);
      buffers.putEncoded(src, from, length, sourceTag, positionTag(offset));
      return offset;
    } finally {
      appendLock.unlock();
    }
  }

  /** Makes room for {@code length} bytes; returns the offset they will have. */
  private long reserve(int length) throws IOException {
    long offset = buffers.end();
    if (offset + length > MAX_BYTES) {
      throw new IOException(path + ": a datastore log cannot grow past 32 GiB (offset "
          + offset + " + record " + length + " bytes); split the key range");
    }
    return buffers.reserve(length);
  }

  /**
   * Hands every appended record to the operating system and waits until it is there, writing
   * the buffer on this thread: a hand-off to the writer would add a wake-up to every sync.
   */
  void flush() throws IOException {
    appendLock.lock();
    try {
      writeback.throwIfFailed();
      buffers.flush();
    } finally {
      appendLock.unlock();
    }
  }

  /** Flushes and forces the file's data to the device. */
  void sync() throws IOException {
    flush();
    forceData();
  }

  /**
   * Forces the file's data to the device, unless nothing reached the file (no record, no
   * header change) since this method last forced it: an interval sync of an idle datastore
   * then costs no system call. It was most of an idle back-end's CPU (15 arcs, 10 forces a
   * second each).
   */
  void forceData() throws IOException {
    long end = buffers.written();
    long headerFloor = floor.get();
    if (end == forcedEnd.get() && headerFloor == forcedFloor) {
      return;
    }
    channel.force(false);
    // Only up: two forces at once may finish in either order, and the later one's end counts.
    forcedEnd.accumulateAndGet(end, Math::max);
    forcedFloor = headerFloor;
  }

  /**
   * Reads {@code dst.remaining()} bytes at {@code offset} (fewer at the end of the log);
   * returns how many. Bytes not yet in the file are copied from the buffers.
   */
  int read(long offset, ByteBuffer dst) throws IOException {
    int wanted = dst.remaining();
    if (offset + wanted <= buffers.written()) {
      FileIo.readFully(channel, dst, offset);
      return wanted;
    }
    appendLock.lock();
    try {
      return buffers.read(offset, dst);
    } finally {
      appendLock.unlock();
    }
  }

  /** Cuts the file at {@code length} (recovery drops a torn tail). */
  void truncate(long length) throws IOException {
    appendLock.lock();
    try {
      buffers.truncate(length);
      forcedEnd.set(-1); // a length forced before may be reached again with other bytes
      writeback.restartAt(length);
    } finally {
      appendLock.unlock();
    }
  }

  /** The file's length at its last {@link #forceData} (-1 before any): what a power cut keeps. */
  long forcedBytes() {
    return forcedEnd.get();
  }

  /** Bytes already in the file (records appended since sit in the buffers). */
  long flushedBytes() {
    return buffers.written();
  }

  /** Renames the file atomically (compaction's swap) and forces the directory entry. */
  void moveTo(Path target) throws IOException {
    Files.move(path, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    path = target;
    claim.renamedTo(target);
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
      buffers.awaitWrite();
    } catch (IOException e) {
      LOG.warn("{}: closing after a failed background write", path, e);
    } finally {
      appendLock.unlock();
    }
    try {
      writeback.awaitLastForce();
    } finally {
      channel.close();
      claim.release();
    }
  }
}

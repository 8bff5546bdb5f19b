package org.fawnpack.kv.store;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.function.Supplier;

/**
 * A log's double-buffered appends. Records are encoded into an append buffer; a full buffer is
 * handed to a background writer ({@link LogWriters}) and appending goes on in a second buffer,
 * so the copy into the page cache overlaps the caller's work. At most one write is in flight,
 * so the file is always a prefix of the log; bytes not yet in the file are read from the
 * buffers. A write that fails is kept by {@link Writeback}, so the log's later appends fail too.
 *
 * <p>Not thread-safe: its {@link DataLog} calls it under the log's append lock, all but
 * {@link #written()}, which readers use without the lock.
 */
final class AppendBuffers {

  private final FileChannel channel;
  private final Writeback writeback;
  /** The log's path for messages: a compaction's rename changes it. */
  private final Supplier<Path> path;

  // Invariant: bytes below handedOffBase (below bufferBase when handedOffLength is 0) are in
  // the file; when handedOffLength > 0, handedOffBase + handedOffLength == bufferBase.
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

  /** Appending at {@code written}, the file's length, in buffers of {@code bufferBytes}. */
  AppendBuffers(FileChannel channel, Writeback writeback, Supplier<Path> path, long written,
      int bufferBytes) {
    this.channel = channel;
    this.writeback = writeback;
    this.path = path;
    this.written = written;
    this.bufferBase = written;
    // Direct buffers: the channel writes them as they are, where a heap buffer would first be
    // copied into a temporary direct one (a third copy of every byte on the write path).
    this.buffer = ByteBuffer.allocateDirect(bufferBytes);
  }

  /** The end of the log, buffered bytes included: where the next record goes. */
  long end() {
    return bufferBase + buffer.position();
  }

  /** Bytes already in the file (records appended since sit in the buffers). */
  long written() {
    return written;
  }

  /**
   * Makes room for {@code length} bytes, handing the buffer off when they do not fit; returns
   * the offset they will have.
   */
  long reserve(int length) throws IOException {
    if (buffer.remaining() < length) {
      handOff();
    }
    return end();
  }

  /** Encodes a record of {@code length} bytes (as {@link #reserve}d) at the end of the log. */
  void put(byte kind, byte[] key, byte[] value, long sequence, int tag, int length)
      throws IOException {
    if (length > buffer.capacity()) {
      ByteBuffer big = ByteBuffer.allocate(length);
      RecordFormat.encode(big, kind, key, value, sequence, tag);
      writeDirectly(big.flip());
    } else {
      RecordFormat.encode(buffer, kind, key, value, sequence, tag);
    }
  }

  /**
   * Copies the encoded record in {@code src[from, from+length)} (as {@link #reserve}d) to the
   * end of the log, retagged from {@code sourceTag} to {@code tag}.
   */
  void putEncoded(ByteBuffer src, int from, int length, int sourceTag, int tag)
      throws IOException {
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
  }

  /** A record bigger than the buffer goes to the file at once, after everything before it. */
  private void writeDirectly(ByteBuffer record) throws IOException {
    awaitWrite();
    handedOffLength = 0;
    int length = record.remaining();
    FileIo.writeFully(channel, record, bufferBase);
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
    writeToFile(view, base);
    return null;
  }

  /** Writes {@code view} at {@code base}; a failure is kept, so later appends fail too. */
  private void writeToFile(ByteBuffer view, long base) throws IOException {
    long end = base + view.remaining();
    try {
      FileIo.writeFully(channel, view, base);
    } catch (IOException e) {
      writeback.failed(e);
      throw e;
    }
    written = end;
    writeback.written(end);
  }

  /** Waits for the write in flight, if any; its failure is thrown here. */
  void awaitWrite() throws IOException {
    Future<Void> write = pendingWrite;
    if (write == null) {
      return;
    }
    try {
      write.get();
    } catch (ExecutionException e) {
      throw new IOException(path.get() + ": background write of the log failed", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException(path.get() + ": interrupted waiting for a log write");
    }
    pendingWrite = null;
  }

  /**
   * Hands every appended record to the operating system and waits until it is there, writing
   * the buffer on this thread: a hand-off to the writer would add a wake-up to every sync.
   */
  void flush() throws IOException {
    awaitWrite();
    int length = buffer.position();
    if (length == 0) {
      return;
    }
    writeToFile(buffer.duplicate().flip(), bufferBase);
    handedOffLength = 0; // every byte below bufferBase + length is in the file now
    buffer.clear();
    bufferBase += length;
  }

  /**
   * Reads {@code dst.remaining()} bytes at {@code offset} (fewer at the end of the log);
   * returns how many. What is in the file is read from it, the rest copied from the buffers.
   */
  int read(long offset, ByteBuffer dst) throws IOException {
    int wanted = dst.remaining();
    long end = Math.min(offset + wanted, bufferBase + buffer.position());
    long inFile = handedOffLength > 0 ? handedOffBase : bufferBase;
    long at = offset;
    if (at < Math.min(end, inFile)) {
      ByteBuffer part = dst.duplicate();
      part.limit(part.position() + (int) (Math.min(end, inFile) - at));
      FileIo.readFully(channel, part, at);
      dst.position(part.position());
      at = Math.min(end, inFile);
    }
    if (handedOffLength > 0) {
      at = copyFrom(handedOff, handedOffBase, at, end, dst);
    }
    copyFrom(buffer, bufferBase, at, end, dst);
    return (int) Math.max(0, end - offset);
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

  /** Cuts the file at {@code length}, once every earlier write is in; appends go on there. */
  void truncate(long length) throws IOException {
    handOff();
    awaitWrite();
    handedOffLength = 0;
    channel.truncate(length);
    channel.force(true);
    bufferBase = length;
    written = length;
  }
}

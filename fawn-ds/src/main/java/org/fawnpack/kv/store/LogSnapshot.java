package org.fawnpack.kv.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A datastore as it was at one instant, for whole-file transfer to another node: the first
 * {@link #logBytes} of its log and an index checkpoint that covers exactly them, so the copy
 * opens without re-indexing and goes on from {@link #lastSequence}.
 *
 * <p>No bytes are copied to take it: the log is append-only below its flushed end, so a hard
 * link to it (made under the writer lock) keeps that prefix as it was while the datastore goes
 * on appending, and a compaction that swaps the log leaves the linked file alone. The header is
 * kept in memory, since a split or merge may raise its sequence floor in place. Where hard
 * links are not possible the prefix is copied under the lock. {@link #delete} removes the
 * snapshot's files; the datastore is untouched by all of this.
 */
public final class LogSnapshot implements AutoCloseable {
  private final Path log;
  private final Path checkpoint;
  private final long logBytes;
  private final long lastSequence;
  private final byte[] header;
  private final FileChannel logChannel;
  private final FileChannel checkpointChannel;

  private LogSnapshot(Path log, long logBytes, long lastSequence, byte[] header)
      throws IOException {
    this.log = log;
    this.checkpoint = StoreFiles.checkpoint(log);
    this.logBytes = logBytes;
    this.lastSequence = lastSequence;
    this.header = header;
    this.logChannel = FileChannel.open(log, StandardOpenOption.READ);
    try {
      this.checkpointChannel = FileChannel.open(checkpoint, StandardOpenOption.READ);
    } catch (IOException e) {
      logChannel.close();
      throw e;
    }
  }

  /**
   * Takes the snapshot into {@code target} (and its checkpoint beside it); the caller holds
   * the datastore's maintenance lock, so no compaction or move swaps the log meanwhile.
   */
  static LogSnapshot take(CurrentLog current, Writes writes, Path target) throws IOException {
    if (Files.exists(target) || Files.exists(StoreFiles.checkpoint(target))) {
      throw new java.nio.file.FileAlreadyExistsException(target.toString());
    }
    writes.lock().lock();
    long covered;
    long next;
    byte[] header = new byte[DataLog.HEADER_BYTES];
    try {
      IndexedLog g = current.open();
      g.log().flush();
      covered = g.log().flushedBytes();
      next = writes.nextSequence();
      g.log().read(0, ByteBuffer.wrap(header));
      linkOrCopy(g.log().path(), target, covered);
      IndexCheckpoint.write(target, g.log().logId(), covered, next, g.index());
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(target);
      IndexCheckpoint.delete(target);
      throw e;
    } finally {
      writes.lock().unlock();
    }
    return new LogSnapshot(target, covered, next - 1, header);
  }

  private static void linkOrCopy(Path source, Path target, long bytes) throws IOException {
    try {
      Files.createLink(target, source);
      return;
    } catch (UnsupportedOperationException | FileSystemException e) {
      // No hard links here (another file system, say): copy the prefix instead.
    }
    try (FileChannel in = FileChannel.open(source, StandardOpenOption.READ);
        FileChannel out = FileChannel.open(target, StandardOpenOption.CREATE_NEW,
            StandardOpenOption.WRITE)) {
      long at = 0;
      while (at < bytes) {
        at += in.transferTo(at, bytes - at, out);
      }
      out.force(true);
    }
  }

  /** The length of the log prefix the snapshot holds. */
  public long logBytes() {
    return logBytes;
  }

  /** The length of the checkpoint file. */
  public long checkpointBytes() throws IOException {
    return checkpointChannel.size();
  }

  /** The sequence number of the last write in the snapshot (0 when none). */
  public long lastSequence() {
    return lastSequence;
  }

  /** Up to {@code length} bytes of the log from {@code offset}. */
  public byte[] readLog(long offset, int length) throws IOException {
    byte[] bytes = new byte[logBytesFrom(offset, length)];
    readLogInto(offset, bytes, 0, bytes.length);
    return bytes;
  }

  /** How many bytes {@link #readLog} gives from {@code offset}: fewer at the log's end. */
  public int logBytesFrom(long offset, int length) {
    return available(logBytes, offset, length);
  }

  /**
   * Reads {@code length} bytes of the log from {@code offset} (at most
   * {@link #logBytesFrom}) into {@code into} at {@code at}: straight into a message's buffer,
   * with no copy between.
   */
  public void readLogInto(long offset, byte[] into, int at, int length) throws IOException {
    requireWithin(logBytesFrom(offset, length), length, offset);
    FileIo.readFully(logChannel, ByteBuffer.wrap(into, at, length), offset);
    for (int i = 0; i < length && offset + i < header.length; i++) {
      into[at + i] = header[(int) (offset + i)];
    }
  }

  /**
   * Up to {@code length} bytes of the log from {@code offset} (as many as
   * {@link #logBytesFrom}), described for a sender that hands file bytes to its socket without
   * reading them ({@code sendfile}): first {@code fromMemory}, the part of the snapshot's header
   * they cover (the live file's header may have been rewritten since the snapshot), then
   * {@code count} bytes of {@code file} from {@code position}.
   */
  public record LogPiece(byte[] fromMemory, Path file, long position, int count) {}

  /** See {@link LogPiece}. */
  public LogPiece logPiece(long offset, int length) {
    int bytes = logBytesFrom(offset, length);
    int fromHeader = (int) Math.max(0, Math.min(bytes, header.length - offset));
    byte[] fromMemory = java.util.Arrays.copyOfRange(header, (int) Math.min(offset,
        header.length), (int) Math.min(offset, header.length) + fromHeader);
    return new LogPiece(fromMemory, log, offset + fromHeader, bytes - fromHeader);
  }

  /** Up to {@code length} bytes of the checkpoint from {@code offset}. */
  public byte[] readCheckpoint(long offset, int length) throws IOException {
    byte[] bytes = new byte[checkpointBytesFrom(offset, length)];
    readCheckpointInto(offset, bytes, 0, bytes.length);
    return bytes;
  }

  /** How many bytes {@link #readCheckpoint} gives from {@code offset}. */
  public int checkpointBytesFrom(long offset, int length) throws IOException {
    return available(checkpointChannel.size(), offset, length);
  }

  /** As {@link #readLogInto}, for the checkpoint. */
  public void readCheckpointInto(long offset, byte[] into, int at, int length)
      throws IOException {
    requireWithin(checkpointBytesFrom(offset, length), length, offset);
    FileIo.readFully(checkpointChannel, ByteBuffer.wrap(into, at, length), offset);
  }

  private static int available(long size, long offset, int length) {
    if (offset < 0 || length < 0 || offset > size) {
      throw new IllegalArgumentException("no bytes at offset " + offset + " of " + size);
    }
    return (int) Math.min(length, size - offset);
  }

  private static void requireWithin(int available, int length, long offset) {
    if (length > available) {
      throw new IllegalArgumentException(length + " bytes asked at offset " + offset + ", "
          + available + " there");
    }
  }

  /** The checkpoint file that goes with data log {@code log}: where a copy's must be put. */
  public static Path checkpointOf(Path log) {
    return StoreFiles.checkpoint(log);
  }

  /** Closes and deletes the snapshot's files. */
  public void delete() throws IOException {
    close();
    Files.deleteIfExists(log);
    Files.deleteIfExists(checkpoint);
  }

  @Override
  public void close() throws IOException {
    try {
      logChannel.close();
    } finally {
      checkpointChannel.close();
    }
  }
}

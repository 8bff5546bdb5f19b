package org.fawnpack.kv.store;

import java.io.BufferedInputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * The live entries of a copy of a datastore's two files read as streams, where they are not
 * local (a snapshot on HDFS): the log front to back, each record checked (lengths, CRC32C with
 * its position tag), a put live exactly when the copied index checkpoint points at it. The
 * checkpoint must cover the whole log, as a {@link LogSnapshot}'s does. A record that fails a
 * check is an error naming the file and the offset: unlike the engine's own scan, a copy read
 * once has no later record to resynchronise on safely, and its reader can fetch it again. Not
 * thread-safe.
 */
public final class SnapshotStream implements Closeable {
  private static final int READ_BYTES = 1 << 20;

  private final DataInputStream log;
  private final Path name;
  private final long logBytes;
  private final LogFileHeader header;
  private final HashIndex index;
  private final long lastSequence;
  private ByteBuffer record = ByteBuffer.allocate(64 << 10);
  private long offset = DataLog.HEADER_BYTES;

  private SnapshotStream(DataInputStream log, Path name, long logBytes, LogFileHeader header,
      HashIndex index, long lastSequence) {
    this.log = log;
    this.name = name;
    this.logBytes = logBytes;
    this.header = header;
    this.index = index;
    this.lastSequence = lastSequence;
  }

  /**
   * Opens the copy: {@code log} holds {@code logBytes} bytes of log and {@code checkpoint}
   * the {@code checkpointBytes} of its index checkpoint; {@code name} names the log in errors.
   * Reads the checkpoint whole (6 bytes a bucket) and closes it.
   *
   * @throws IOException naming the file when a header or the checkpoint is wrong
   */
  public static SnapshotStream open(InputStream log, long logBytes, InputStream checkpoint,
      long checkpointBytes, String name) throws IOException {
    Path path = Path.of(name);
    if (logBytes < DataLog.HEADER_BYTES) {
      throw new IOException("datastore log " + name + " has " + logBytes
          + " bytes, less than its header (" + DataLog.HEADER_BYTES + ")");
    }
    DataInputStream in = new DataInputStream(new BufferedInputStream(log, READ_BYTES));
    ByteBuffer headerBytes = ByteBuffer.allocate(LogFileHeader.BYTES);
    in.readFully(headerBytes.array());
    LogFileHeader header = LogFileHeader.decode(path, headerBytes);
    IndexCheckpoint.Loaded loaded;
    try (InputStream c = checkpoint) {
      loaded = IndexCheckpoint.readCopy(c, checkpointBytes, name + " (checkpoint)",
          header.logId(), logBytes);
    }
    if (loaded.coveredBytes() != logBytes) {
      throw new IOException("the index checkpoint of " + name + " covers "
          + loaded.coveredBytes() + " of its " + logBytes + " bytes: not a snapshot's");
    }
    return new SnapshotStream(in, path, logBytes, header, loaded.index(),
        loaded.nextSequence() - 1);
  }

  /** The next live entry in log (sequence) order, or null at the end of the log. */
  public StoreView.Entry next() throws IOException {
    while (offset < logBytes) {
      long at = offset;
      readRecord(at);
      offset = at + record.limit();
      if (RecordFormat.kind(record, 0) != RecordFormat.KIND_PUT) {
        continue;
      }
      int keyLength = RecordFormat.keyLength(record, 0);
      if (index.pointsAt(KeyHash.of(record.array(), RecordFormat.HEADER_BYTES, keyLength), at)) {
        return new StoreView.Entry(RecordFormat.sequence(record, 0),
            RecordFormat.copy(record, RecordFormat.HEADER_BYTES, keyLength),
            RecordFormat.copy(record, RecordFormat.HEADER_BYTES + keyLength,
                RecordFormat.valueLength(record, 0)));
      }
    }
    return null;
  }

  /** Reads the record at {@code at} into {@link #record} (limit: its padded length), checked. */
  private void readRecord(long at) throws IOException {
    if (at + RecordFormat.HEADER_BYTES > logBytes) {
      throw new CorruptLogException(name, at, "record header", "a whole header",
          (logBytes - at) + " bytes left");
    }
    record.clear();
    readFully(at, 0, RecordFormat.HEADER_BYTES);
    if (!RecordFormat.plausibleHeader(record, 0)) {
      throw new CorruptLogException(name, at, "record header", "a put or delete with lengths"
          + " in range", "kind " + RecordFormat.kind(record, 0) + ", key length "
          + RecordFormat.keyLength(record, 0) + ", value length "
          + RecordFormat.valueLength(record, 0));
    }
    int length = RecordFormat.alignedLength(RecordFormat.keyLength(record, 0),
        RecordFormat.valueLength(record, 0));
    if (at + length > logBytes) {
      throw new CorruptLogException(name, at, "record length", "at most " + (logBytes - at),
          String.valueOf(length));
    }
    if (length > record.capacity()) {
      ByteBuffer bigger = ByteBuffer.allocate(length);
      bigger.put(0, record, 0, RecordFormat.HEADER_BYTES);
      record = bigger;
    }
    readFully(at, RecordFormat.HEADER_BYTES, length - RecordFormat.HEADER_BYTES);
    record.limit(length);
    int tag = header.positionTag(at);
    if (!RecordFormat.crcMatches(record, 0, tag)) {
      throw new CorruptLogException(name, at, "record CRC32C",
          Integer.toHexString(RecordFormat.expectedCrc(record, 0, tag)),
          Integer.toHexString(record.getInt(0)));
    }
  }

  private void readFully(long at, int into, int length) throws IOException {
    try {
      log.readFully(record.array(), into, length);
    } catch (EOFException e) {
      throw new CorruptLogException(name, at, "log length", logBytes + " bytes",
          "the stream ended early");
    }
  }

  /** Log bytes read so far, header included (for a reader's progress). */
  public long offset() {
    return offset;
  }

  /** The sequence number of the copy's last write (0 when none). */
  public long lastSequence() {
    return lastSequence;
  }

  @Override
  public void close() throws IOException {
    log.close();
  }
}

package org.fawnpack.kv.store;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Optional;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The index saved next to its log as {@code <log>.idx}, so that an open replays only the log
 * written after it instead of scanning everything.
 *
 * <pre>
 *  (big-endian)
 *   0  8  magic "FAWNIDX1"
 *   8  8  log id of the data log it describes
 *  16  8  log bytes covered (records before this offset are in the index)
 *  24  8  next sequence number
 *  32  4  capacity bits i (2^i buckets)
 *  36  4  live buckets
 *  40  4  deleted buckets
 *  44  4  CRC32C of bytes 0-43 and of the bucket bytes
 *  48     2^i buckets of 6 bytes, as in {@link HashIndex}
 * </pre>
 *
 * Written to a temporary file, forced, then renamed over the old one and the directory forced.
 * A checkpoint that fails any check is logged and ignored: the caller rebuilds from the log and
 * deletes it ({@link #deleteUnused}), since a log that grows past what it covers would make it
 * look valid again.
 */
final class IndexCheckpoint {

  private static final Logger LOG = LoggerFactory.getLogger(IndexCheckpoint.class);
  private static final byte[] MAGIC = "FAWNIDX1".getBytes(StandardCharsets.US_ASCII);
  static final int HEADER_BYTES = 48;

  /** What a valid checkpoint gives back. */
  record Loaded(HashIndex index, long coveredBytes, long nextSequence) {}

  private IndexCheckpoint() {}

  static Path pathFor(Path log) {
    return StoreFiles.checkpoint(log);
  }

  static void write(Path log, long logId, long coveredBytes, long nextSequence, HashIndex index)
      throws IOException {
    Path target = pathFor(log);
    Path tmp = StoreFiles.checkpointInProgress(log);
    byte[] buckets = index.bucketBytes();
    ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES);
    header.put(MAGIC).putLong(logId).putLong(coveredBytes).putLong(nextSequence)
        .putInt(index.capacityBits()).putInt(index.live()).putInt(index.deleted());
    CRC32C crc = new CRC32C();
    crc.update(header.array(), 0, 44);
    crc.update(buckets);
    header.putInt((int) crc.getValue());
    header.flip();
    try (FileChannel out = FileChannel.open(tmp, StandardOpenOption.CREATE,
        StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
      FileIo.writeFully(out, header, 0);
      FileIo.writeFully(out, ByteBuffer.wrap(buckets), HEADER_BYTES);
      out.force(true);
    }
    Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    Directories.syncParentOf(target);
  }

  /** The checkpoint of {@code log}, when one exists, is intact and belongs to this log. */
  static Optional<Loaded> read(Path log, long logId, long logBytes) throws IOException {
    Path file = pathFor(log);
    if (!Files.exists(file)) {
      return Optional.empty();
    }
    try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
      Parsed parsed = parse(in, Files.size(file), logId, logBytes);
      return parsed.problem() == null ? Optional.of(parsed.loaded())
          : ignore(file, parsed.problem());
    }
  }

  /**
   * The checkpoint {@code in} holds ({@code size} bytes, named {@code name} in errors), which
   * must belong to log {@code logId} of {@code logBytes} bytes: for a copy of a datastore read
   * where its files are not local (a snapshot on HDFS).
   *
   * @throws IOException naming the checkpoint and what is wrong with it
   */
  static Loaded readCopy(InputStream in, long size, String name, long logId,
      long logBytes) throws IOException {
    Parsed parsed = parse(in, size, logId, logBytes);
    if (parsed.problem() != null) {
      throw new IOException("index checkpoint " + name + ": " + parsed.problem());
    }
    return parsed.loaded();
  }

  /** A checkpoint read, or why it is unusable. */
  private record Parsed(Loaded loaded, String problem) {
    static Parsed bad(String problem) {
      return new Parsed(null, problem);
    }
  }

  private static Parsed parse(InputStream in, long size, long logId, long logBytes)
      throws IOException {
    if (size < HEADER_BYTES) {
      return Parsed.bad("shorter than its header (" + size + " bytes)");
    }
    DataInputStream data = new DataInputStream(in);
    ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES);
    data.readFully(header.array());
    if (!Arrays.equals(Arrays.copyOf(header.array(), 8), MAGIC)) {
      return Parsed.bad("bad magic");
    }
    if (header.getLong(8) != logId) {
      return Parsed.bad("it belongs to log id " + Long.toHexString(header.getLong(8))
          + ", not " + Long.toHexString(logId));
    }
    long covered = header.getLong(16);
    int bits = header.getInt(32);
    if (covered < DataLog.HEADER_BYTES || covered > logBytes) {
      return Parsed.bad("it covers " + covered + " bytes but the log has " + logBytes);
    }
    if (bits < HashIndex.MIN_CAPACITY_BITS || bits > HashIndex.MAX_CAPACITY_BITS
        || size != HEADER_BYTES + ((long) HashIndex.BUCKET_BYTES << bits)) {
      return Parsed.bad("size " + size + " does not match 2^" + bits + " buckets");
    }
    byte[] buckets = new byte[HashIndex.BUCKET_BYTES << bits];
    data.readFully(buckets);
    CRC32C crc = new CRC32C();
    crc.update(header.array(), 0, 44);
    crc.update(buckets);
    if ((int) crc.getValue() != header.getInt(44)) {
      return Parsed.bad("CRC32C mismatch");
    }
    HashIndex index = new HashIndex(bits, buckets, header.getInt(36), header.getInt(40));
    return new Parsed(new Loaded(index, covered, header.getLong(24)), null);
  }

  private static Optional<Loaded> ignore(Path file, String why) {
    LOG.warn("Ignoring index checkpoint {}: {}; rebuilding the index from the log", file, why);
    return Optional.empty();
  }

  /** Deletes the checkpoint of {@code log}, if any, and forces the directory. */
  static void delete(Path log) throws IOException {
    if (Files.deleteIfExists(pathFor(log))) {
      Directories.syncParentOf(log);
    }
  }

  /** Deletes a checkpoint that recovery did not use, so that no later open can use it. */
  static void deleteUnused(Path log) throws IOException {
    if (Files.deleteIfExists(pathFor(log))) {
      LOG.info("{}: deleted its unused index checkpoint {}", log, pathFor(log));
      Directories.syncParentOf(log);
    }
  }
}

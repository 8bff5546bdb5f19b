package org.fawnpack.kv.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The data log's background writes: bytes read back at any moment (in the file, in the buffer
 * being written, in the buffer being filled) equal the documented record format, computed here
 * independently; a failed background write fails every later append; the writeback forces.
 */
class DataLogTest {

  private static final int SMALL_BUFFER = 4096;

  @TempDir
  Path dir;

  /**
   * A record laid out by the format in {@link RecordFormat}'s Javadoc, written out by hand, for
   * offset {@code offset} of the log with id {@code logId} (the version 2 position tag).
   */
  private static byte[] expectedRecord(byte[] key, byte[] value, long sequence, long logId,
      long offset) {
    ByteBuffer body = ByteBuffer.allocate(16 + key.length + value.length);
    body.putInt((RecordFormat.KIND_PUT << 24) | (key.length - 1)).putInt(value.length)
        .putLong(sequence).put(key).put(value);
    CRC32C crc = new CRC32C();
    crc.update(body.array());
    int padded = (4 + body.capacity() + 7) / 8 * 8;
    ByteBuffer record = ByteBuffer.allocate(padded);
    record.putInt((int) crc.getValue() ^ LogFileParser.tag(logId, offset)).put(body.array());
    return record.array();
  }

  private static byte[] bytes(Random random, int length) {
    byte[] b = new byte[length];
    random.nextBytes(b);
    return b;
  }

  /** Appends a record, checks the offset the format gives it, adds its bytes to expected. */
  private static void appendExpecting(DataLog log, ByteArrayOutputStream expected, byte[] key,
      byte[] value, long seq) throws IOException {
    long offset = log.append(RecordFormat.KIND_PUT, key, value, seq);
    assertEquals(DataLog.HEADER_BYTES + expected.size(), offset, "offset of record " + seq);
    expected.write(expectedRecord(key, value, seq, log.logId(), offset));
  }

  private FaultyChannel faultyChannel(Path file) throws IOException {
    return new FaultyChannel(FileChannel.open(file, StandardOpenOption.CREATE_NEW,
        StandardOpenOption.READ, StandardOpenOption.WRITE));
  }

  @Test
  void read_whileWritesAreInFlight_equalsTheFormatAtEveryOffset() throws IOException {
    Random random = new Random(7);
    ByteArrayOutputStream expected = new ByteArrayOutputStream();
    Path file = dir.resolve("a.log");
    try (DataLog log = DataLogFiles.create(file, SMALL_BUFFER, 0)) {
      for (long seq = 1; seq <= 600; seq++) {
        appendExpecting(log, expected, bytes(random, 1 + random.nextInt(30)),
            bytes(random, random.nextInt(700)), seq);
        byte[] all = expected.toByteArray();
        // A range anywhere, often crossing the file / in-flight / filling boundaries.
        int from = random.nextInt(all.length);
        int length = Math.min(all.length - from, 1 + random.nextInt(3 * SMALL_BUFFER));
        ByteBuffer dst = ByteBuffer.allocate(length);
        assertEquals(length, log.read(DataLog.HEADER_BYTES + from, dst), "bytes read");
        assertArrayEquals(Arrays.copyOfRange(all, from, from + length), dst.array(),
            "log bytes " + from + ".." + (from + length) + " after record " + seq);
      }
      ByteBuffer pastEnd = ByteBuffer.allocate(100);
      assertEquals(0, log.read(DataLog.HEADER_BYTES + expected.size() + 8, pastEnd));
      log.sync();
    }
    byte[] file1 = Files.readAllBytes(file);
    assertArrayEquals(expected.toByteArray(),
        Arrays.copyOfRange(file1, DataLog.HEADER_BYTES, file1.length));
  }

  @Test
  void append_afterABackgroundWriteFailed_throwsNamingTheLog() throws IOException {
    Path file = dir.resolve("full.log");
    FaultyChannel channel = faultyChannel(file);
    channel.failWritesFrom(3 * SMALL_BUFFER);
    Random random = new Random(3);
    try (DataLog log = DataLogFiles.create(file, channel, SMALL_BUFFER, 0)) {
      IOException failure = assertThrows(IOException.class, () -> {
        for (long seq = 1; seq < 1_000; seq++) {
          log.append(RecordFormat.KIND_PUT, bytes(random, 20), bytes(random, 200), seq);
        }
      });
      assertTrue(failure.getMessage().contains(file.toString()), failure.getMessage());
      IOException again = assertThrows(IOException.class,
          () -> log.append(RecordFormat.KIND_PUT, new byte[] {1}, new byte[] {2}, 5_000));
      assertTrue(again.getMessage().contains("earlier write or force"), again.getMessage());
      assertThrows(IOException.class, log::sync);
      assertThrows(IOException.class, log::flush);
    }
  }

  @Test
  void writeback_forcesInTheBackground_withoutASync() throws Exception {
    Path file = dir.resolve("wb.log");
    FaultyChannel channel = faultyChannel(file);
    Random random = new Random(5);
    int atCreate;
    try (DataLog log = DataLogFiles.create(file, channel, 64 << 10, 1 << 20)) {
      atCreate = channel.forces.get();
      for (long seq = 1; seq <= 3 * 4400; seq++) {
        log.append(RecordFormat.KIND_PUT, bytes(random, 20), bytes(random, 220), seq);
      }
      // The write that crossed 1 MiB submitted a force before it completed; flush waits for the
      // writes and close for that force (close itself neither flushes nor forces).
      log.flush();
    }
    assertTrue(channel.forces.get() > atCreate, "no background force after 3 MiB");
  }


  @Test
  void writeback_off_forcesOnlyOnSync() throws IOException {
    Path file = dir.resolve("nowb.log");
    FaultyChannel channel = faultyChannel(file);
    Random random = new Random(6);
    try (DataLog log = DataLogFiles.create(file, channel, 64 << 10, 0)) {
      int atCreate = channel.forces.get();
      for (long seq = 1; seq <= 3 * 4400; seq++) {
        log.append(RecordFormat.KIND_PUT, bytes(random, 20), bytes(random, 220), seq);
      }
      log.flush();
      assertEquals(atCreate, channel.forces.get(), "forces before any sync");
      log.sync();
      assertEquals(atCreate + 1, channel.forces.get(), "forces after one sync");
    }
  }

  @Test
  void sync_withNothingNewSinceTheLastForce_leavesTheDeviceAlone() throws IOException {
    Path file = dir.resolve("idle.log");
    FaultyChannel channel = faultyChannel(file);
    try (DataLog log = DataLogFiles.create(file, channel, 64 << 10, 0)) {
      log.append(RecordFormat.KIND_PUT, new byte[] {1}, new byte[] {2}, 1);
      int before = channel.forces.get();
      log.sync();
      assertEquals(before + 1, channel.forces.get(), "a sync after a record forces");
      log.sync();
      log.sync();
      assertEquals(before + 1, channel.forces.get(), "syncs with nothing new force nothing");
      log.append(RecordFormat.KIND_PUT, new byte[] {3}, new byte[] {4}, 2);
      log.sync();
      assertEquals(before + 2, channel.forces.get(), "a new record is forced");
      log.raiseSequenceFloor(100);
      log.sync();
      assertEquals(before + 3, channel.forces.get(), "a header change is forced");
      log.sync();
      assertEquals(before + 3, channel.forces.get(), "and only once");
    }
  }

  @Test
  void flush_whoseWriteFails_throwsAndFailsLaterAppends() throws IOException {
    Path file = dir.resolve("flushfail.log");
    FaultyChannel channel = faultyChannel(file);
    try (DataLog log = DataLogFiles.create(file, channel, 64 << 10, 0)) {
      log.append(RecordFormat.KIND_PUT, new byte[] {1}, new byte[100], 1);
      log.flush();
      long inFile = log.flushedBytes();
      channel.failWritesFrom(inFile);
      log.append(RecordFormat.KIND_PUT, new byte[] {2}, new byte[100], 2);
      assertThrows(IOException.class, log::flush, "the flush's own write failed");
      assertEquals(inFile, log.flushedBytes(), "nothing counted as written");
      IOException again = assertThrows(IOException.class,
          () -> log.append(RecordFormat.KIND_PUT, new byte[] {3}, new byte[] {4}, 3));
      assertTrue(again.getMessage().contains(file.toString()), again.getMessage());
      assertThrows(IOException.class, log::sync);
    }
  }

  @Test
  void append_recordLargerThanTheBuffer_landsAfterEverythingBefore() throws IOException {
    Random random = new Random(8);
    ByteArrayOutputStream expected = new ByteArrayOutputStream();
    Path file = dir.resolve("big.log");
    try (DataLog log = DataLogFiles.create(file, SMALL_BUFFER, 0)) {
      for (long seq = 1; seq <= 40; seq++) {
        int valueLength = seq % 10 == 0 ? 3 * SMALL_BUFFER : random.nextInt(500);
        appendExpecting(log, expected, bytes(random, 10), bytes(random, valueLength), seq);
      }
      ByteBuffer all = ByteBuffer.allocate(expected.size());
      log.read(DataLog.HEADER_BYTES, all);
      assertArrayEquals(expected.toByteArray(), all.array());
      log.sync();
    }
    byte[] onDisk = Files.readAllBytes(file);
    assertArrayEquals(expected.toByteArray(),
        Arrays.copyOfRange(onDisk, DataLog.HEADER_BYTES, onDisk.length));
  }
}

package org.fawnpack.kv.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Recovery on open: damaged bytes in the middle skipped and reported, a torn tail cut, random
 * garbage from a random offset leaving exactly the valid prefix, and the index checkpoint.
 * Record offsets are computed here from the documented format (32-byte file header, 20-byte
 * record header, 8-byte alignment), not asked from the store.
 */
class RecoveryTest {

  private static final DatastoreConfig NO_CHECKPOINT =
      DatastoreConfig.builder().checkpoint(false).sync(SyncPolicy.NONE).build();

  @TempDir
  Path dir;

  /** One written record: its key, value (null for a delete) and where the format puts it. */
  private record Written(byte[] key, byte[] value, long offset, long end) {}

  /** Writes {@code count} operations (puts with some overwrites and deletes) and closes. */
  private List<Written> writeRecords(Path file, DatastoreConfig config, int count, long seed)
      throws IOException {
    Random random = new Random(seed);
    List<Written> written = new ArrayList<>();
    List<byte[]> keys = new ArrayList<>();
    long offset = 32;
    try (Datastore ds = Datastore.open(file, config)) {
      for (int i = 0; i < count; i++) {
        byte[] key;
        byte[] value;
        if (!keys.isEmpty() && random.nextInt(10) == 0) {
          key = keys.get(random.nextInt(keys.size()));
          if (!ds.contains(key)) {
            continue;
          }
          ds.delete(key);
          value = null;
        } else {
          key = !keys.isEmpty() && random.nextInt(5) == 0 ? keys.get(random.nextInt(keys.size()))
              : Model.randomBytes(random, 1 + random.nextInt(30));
          value = Model.randomBytes(random, random.nextInt(300));
          ds.put(key, value);
          keys.add(key);
        }
        int raw = 20 + key.length + (value == null ? 0 : value.length);
        long end = offset + ((raw + 7) / 8) * 8;
        written.add(new Written(key, value, offset, end));
        offset = end;
      }
    }
    assertEquals(offset, Files.size(file), "the format's offsets add up to the file size");
    return written;
  }

  /** The model after the records that end at or before {@code limit}, skipping one index. */
  private static Model modelOf(List<Written> written, long limit, int skipped) {
    return modelOf(written, limit, i -> i == skipped);
  }

  /** The model after the records that end at or before {@code limit}, skipping some. */
  private static Model modelOf(List<Written> written, long limit,
      java.util.function.IntPredicate skipped) {
    Model model = new Model();
    for (int i = 0; i < written.size(); i++) {
      Written w = written.get(i);
      if (w.end() > limit || skipped.test(i)) {
        continue;
      }
      if (w.value() == null) {
        model.delete(w.key());
      } else {
        model.put(w.key(), w.value());
      }
    }
    return model;
  }

  private static List<byte[]> keysOf(List<Written> written) {
    return written.stream().map(Written::key).toList();
  }

  @Test
  void open_flippedByteInMiddle_recordSkippedAndReported() throws IOException {
    Path file = dir.resolve("flip.fds");
    List<Written> written = writeRecords(file, NO_CHECKPOINT, 500, 1);
    int victim = 250;
    while (written.get(victim).value() == null) {
      victim++;
    }
    Written w = written.get(victim);
    flipByte(file, w.offset() + 20 + w.key().length / 2);
    try (Datastore ds = Datastore.open(file, NO_CHECKPOINT)) {
      RecoveryReport report = ds.recoveryReport();
      assertEquals(List.of(new RecoveryReport.Damage(w.offset(), w.end(), 1)), report.skipped());
      assertEquals(0, report.truncatedBytes());
      modelOf(written, Long.MAX_VALUE, victim).assertHeldBy(ds, keysOf(written));
    }
  }

  /** Three records in a row with a bad CRC: one damaged range, three records lost. */
  @Test
  void open_threeDamagedRecordsInARow_oneRangeCountingThreeRecords() throws IOException {
    Path file = dir.resolve("three.fds");
    List<Written> written = writeRecords(file, NO_CHECKPOINT, 300, 6);
    int first = 100;
    for (int i = first; i < first + 3; i++) {
      flipByte(file, written.get(i).offset() + 1);  // the CRC field: the header stays readable
    }
    try (Datastore ds = Datastore.open(file, NO_CHECKPOINT)) {
      RecoveryReport report = ds.recoveryReport();
      assertEquals(List.of(new RecoveryReport.Damage(written.get(first).offset(),
          written.get(first + 3).offset(), 3)), report.skipped());
      assertEquals(3, report.skippedRecords());
      modelOf(written, Long.MAX_VALUE, i -> i >= first && i < first + 3)
          .assertHeldBy(ds, keysOf(written));
    }
  }

  @Test
  void get_flippedByteUnderCheckpoint_throwsCorruptLogExceptionWithOffset() throws IOException {
    Path file = dir.resolve("flip-checkpoint.fds");
    DatastoreConfig config = DatastoreConfig.builder().sync(SyncPolicy.NONE).build();
    Random random = new Random(3);
    byte[] key = Model.randomBytes(random, 20);
    long offset;
    try (Datastore ds = Datastore.open(file, config)) {
      ds.put(Model.randomBytes(random, 20), new byte[100]);
      ds.put(key, new byte[100]);
      ds.sync();
      offset = 32 + 8 * ((20 + 20 + 100 + 7) / 8);
    }
    flipByte(file, offset + 20 + 20 + 50);
    try (Datastore ds = Datastore.open(file, config)) {
      assertTrue(ds.recoveryReport().fromCheckpoint());
      CorruptLogException e = assertThrows(CorruptLogException.class, () -> ds.get(key));
      assertEquals(offset, e.offset());
      assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
    }
  }

  @Test
  void open_truncatedTail_cutAndValidPrefixKept() throws IOException {
    Path file = dir.resolve("torn.fds");
    List<Written> written = writeRecords(file, NO_CHECKPOINT, 300, 2);
    Written last = written.get(written.size() - 1);
    long cut = last.offset() + (last.end() - last.offset()) / 2;
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
      raf.setLength(cut);
    }
    byte[] tornBytes = java.util.Arrays.copyOfRange(Files.readAllBytes(file),
        (int) last.offset(), (int) cut);
    try (Datastore ds = Datastore.open(file, NO_CHECKPOINT)) {
      RecoveryReport report = ds.recoveryReport();
      assertEquals(cut - last.offset(), report.truncatedBytes());
      assertEquals(1, report.truncatedRecords());
      assertEquals(dir.resolve("torn.fds.tail-" + last.offset() + ".corrupt"),
          report.truncatedTailCopy());
      assertArrayEquals(tornBytes, Files.readAllBytes(report.truncatedTailCopy()),
          "the cut bytes are kept");
      assertEquals(last.offset(), Files.size(file), "the torn record is cut off the file");
      Model model = modelOf(written, last.offset(), -1);
      model.assertHeldBy(ds, keysOf(written));
      byte[] key = {1, 2, 3};
      ds.put(key, new byte[] {4});
      model.put(key, new byte[] {4});
    }
    try (Datastore ds = Datastore.open(file, NO_CHECKPOINT)) {
      assertEquals(0, ds.recoveryReport().truncatedBytes());
      assertArrayEquals(new byte[] {4}, ds.get(new byte[] {1, 2, 3}));
    }
  }

  /** Random bytes from a random offset to the end, ten times: exactly the valid prefix stays. */
  @Test
  void open_randomGarbageFromRandomOffset_exactlyValidPrefixRemains() throws IOException {
    Random random = new Random(11);
    for (int round = 0; round < 10; round++) {
      Path file = dir.resolve("garbage-" + round + ".fds");
      List<Written> written = writeRecords(file, NO_CHECKPOINT, 200, 100 + round);
      long size = Files.size(file);
      long from = 32 + (long) (random.nextDouble() * (size - 32));
      try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
        raf.seek(from);
        raf.write(Model.randomBytes(random, (int) (size - from)));
      }
      try (Datastore ds = Datastore.open(file, NO_CHECKPOINT)) {
        long validEnd = written.stream().filter(w -> w.end() <= from).mapToLong(Written::end)
            .max().orElse(32);
        assertEquals(validEnd, Files.size(file), "round " + round + ", garbage from " + from);
        assertEquals(size - validEnd, ds.recoveryReport().truncatedBytes());
        modelOf(written, validEnd, -1).assertHeldBy(ds, keysOf(written));
      }
    }
  }

  @Test
  void open_afterCleanClose_loadsCheckpointAndReplaysNothing() throws IOException {
    Path file = dir.resolve("clean.fds");
    DatastoreConfig config = DatastoreConfig.builder().sync(SyncPolicy.NONE).build();
    List<Written> written = writeRecords(file, config, 400, 4);
    try (Datastore ds = Datastore.open(file, config)) {
      RecoveryReport report = ds.recoveryReport();
      assertTrue(report.fromCheckpoint());
      assertEquals(0, report.recordsReplayed());
      assertEquals(Files.size(file), report.replayedFromOffset());
      modelOf(written, Long.MAX_VALUE, -1).assertHeldBy(ds, keysOf(written));
    }
  }

  /** A copy taken while the store is open (as after a crash): checkpoint plus the tail. */
  @Test
  void open_checkpointPlusLogTail_replaysOnlyTheTail() throws IOException {
    Path file = dir.resolve("tail.fds");
    DatastoreConfig config = DatastoreConfig.builder().sync(SyncPolicy.NONE).build();
    Path copy = dir.resolve("copy").resolve("tail.fds");
    Files.createDirectories(copy.getParent());
    try (Datastore ds = Datastore.open(file, config)) {
      ds.put(new byte[] {1}, new byte[] {10});
      ds.put(new byte[] {2}, new byte[] {20});
    }
    try (Datastore ds = Datastore.open(file, config)) {
      ds.put(new byte[] {3}, new byte[] {30});
      assertTrue(ds.delete(new byte[] {1}));
      ds.put(new byte[] {2}, new byte[] {21});
      ds.sync();
      Files.copy(file, copy, StandardCopyOption.REPLACE_EXISTING);
      Files.copy(IndexCheckpoint.pathFor(file), IndexCheckpoint.pathFor(copy));
    }
    try (Datastore ds = Datastore.open(copy, config)) {
      assertTrue(ds.recoveryReport().fromCheckpoint());
      assertEquals(3, ds.recoveryReport().recordsReplayed());
      assertNull(ds.get(new byte[] {1}));
      assertArrayEquals(new byte[] {21}, ds.get(new byte[] {2}));
      assertArrayEquals(new byte[] {30}, ds.get(new byte[] {3}));
    }
  }

  @Test
  void open_corruptCheckpoint_ignoredAndIndexRebuilt() throws IOException {
    Path file = dir.resolve("bad-checkpoint.fds");
    DatastoreConfig config = DatastoreConfig.builder().sync(SyncPolicy.NONE).build();
    List<Written> written = writeRecords(file, config, 300, 5);
    flipByte(IndexCheckpoint.pathFor(file), 60);
    try (Datastore ds = Datastore.open(file, config)) {
      assertFalse(ds.recoveryReport().fromCheckpoint());
      modelOf(written, Long.MAX_VALUE, -1).assertHeldBy(ds, keysOf(written));
    }
  }

  @Test
  void open_notADatastoreFile_throwsNamingFileAndMagic() throws IOException {
    Path file = dir.resolve("text.fds");
    Files.writeString(file, "this is not a FAWN-DS file at all, just text");
    CorruptLogException e = assertThrows(CorruptLogException.class,
        () -> Datastore.open(file, NO_CHECKPOINT));
    assertTrue(e.getMessage().contains(file.toString()) && e.getMessage().contains("magic"),
        e.getMessage());
  }

  static void flipByte(Path file, long at) throws IOException {
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
      raf.seek(at);
      int b = raf.read();
      raf.seek(at);
      raf.write(b ^ 0x5a);
    }
  }
}

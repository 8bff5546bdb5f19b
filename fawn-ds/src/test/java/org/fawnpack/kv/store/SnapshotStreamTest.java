package org.fawnpack.kv.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A snapshot's files read as streams, against a model of the puts, overwrites and deletes made
 * before it was taken (writes after it must not show), and damaged copies refused by offset.
 */
class SnapshotStreamTest {
  private static final DatastoreConfig CONFIG = DatastoreConfig.builder().expectedKeys(1024)
      .build();

  @TempDir
  Path dir;

  /** A snapshot's log and checkpoint bytes as a transfer delivers them. */
  private record Copy(byte[] log, byte[] checkpoint) {
    SnapshotStream open() throws IOException {
      return SnapshotStream.open(new ByteArrayInputStream(log), log.length,
          new ByteArrayInputStream(checkpoint), checkpoint.length, "copy/arc.fds");
    }
  }

  private static Copy copyOf(LogSnapshot snapshot) throws IOException {
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    for (long at = 0; at < snapshot.logBytes(); ) {
      byte[] piece = snapshot.readLog(at, 4096);
      log.write(piece);
      at += piece.length;
    }
    return new Copy(log.toByteArray(), snapshot.readCheckpoint(0,
        (int) snapshot.checkpointBytes()));
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static Map<String, String> read(SnapshotStream stream) throws IOException {
    Map<String, String> entries = new HashMap<>();
    long lastSequence = 0;
    for (StoreView.Entry e = stream.next(); e != null; e = stream.next()) {
      assertTrue(e.sequence() > lastSequence, "entries come in sequence order");
      lastSequence = e.sequence();
      String key = new String(e.key(), StandardCharsets.UTF_8);
      assertNull(entries.put(key, new String(e.value(), StandardCharsets.UTF_8)), key + " twice");
    }
    return entries;
  }

  @Test
  void liveEntriesAsOfTheSnapshot_laterWritesUnseen() throws Exception {
    Map<String, String> model = new HashMap<>();
    Random random = new Random(16);
    try (Datastore ds = Datastore.open(dir.resolve("a.fds"), CONFIG)) {
      for (int i = 0; i < 5_000; i++) {
        String key = "k" + random.nextInt(800);
        if (random.nextInt(5) == 0) {
          ds.delete(utf8(key));
          model.remove(key);
        } else {
          String value = "v" + i + "-".repeat(random.nextInt(300));
          ds.put(utf8(key), utf8(value));
          model.put(key, value);
        }
      }
      ds.put(utf8("big"), new byte[200_000]); // larger than the reader's first buffer
      model.put("big", new String(new byte[200_000], StandardCharsets.UTF_8));
      Copy copy;
      long last;
      try (LogSnapshot snapshot = ds.snapshotTo(dir.resolve("snap.fds"))) {
        for (int i = 0; i < 500; i++) { // after the snapshot: must not show
          ds.put(utf8("k" + i), utf8("after"));
          ds.delete(utf8("k" + (i + 400)));
        }
        copy = copyOf(snapshot);
        last = snapshot.lastSequence();
      }
      try (SnapshotStream stream = copy.open()) {
        assertEquals(model, read(stream));
        assertEquals(last, stream.lastSequence());
        assertEquals(copy.log().length, stream.offset());
      }
    }
  }

  @Test
  void damagedCopies_refusedNamingFileAndOffset() throws Exception {
    Copy copy;
    try (Datastore ds = Datastore.open(dir.resolve("b.fds"), CONFIG)) {
      for (int i = 0; i < 100; i++) {
        ds.put(utf8("key" + i), utf8("value " + i));
      }
      try (LogSnapshot snapshot = ds.snapshotTo(dir.resolve("snap-b.fds"))) {
        copy = copyOf(snapshot);
      }
    }
    byte[] flipped = copy.log().clone();
    flipped[DataLog.HEADER_BYTES + 25] ^= 1; // in the first record's key
    Copy damaged = new Copy(flipped, copy.checkpoint());
    IOException e = assertThrows(CorruptLogException.class, () -> read(damaged.open()));
    assertTrue(e.getMessage().contains("copy/arc.fds at offset " + DataLog.HEADER_BYTES),
        e.getMessage());

    byte[] shortLog = java.util.Arrays.copyOf(copy.log(), copy.log().length - 8);
    e = assertThrows(IOException.class, () -> new Copy(shortLog, copy.checkpoint()).open());
    assertTrue(e.getMessage().contains("copy/arc.fds"), e.getMessage());

    byte[] badCheckpoint = copy.checkpoint().clone();
    badCheckpoint[badCheckpoint.length - 1] ^= 1;
    e = assertThrows(IOException.class, () -> new Copy(copy.log(), badCheckpoint).open());
    assertTrue(e.getMessage().contains("CRC32C"), e.getMessage());
  }
}

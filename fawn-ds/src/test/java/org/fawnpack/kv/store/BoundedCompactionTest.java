package org.fawnpack.kv.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Datastore#compactThrough}, a chain member's compaction, against a model that keeps
 * every write with its number: after compacting below a floor, a read as of any cut at or
 * above the floor gives exactly the model's contents at that cut, gets give the newest, a
 * reopen finds the same, and cuts below the floor are refused rather than answered wrongly.
 */
class BoundedCompactionTest {
  private static final DatastoreConfig CONFIG = DatastoreConfig.builder().expectedKeys(128)
      .build();

  @TempDir
  Path dir;

  private final Random random = new Random(20261127);

  /** Every write by number: key name to value, null for a delete. */
  private final TreeMap<Long, Map.Entry<String, String>> history = new TreeMap<>();

  private static byte[] engineKey(String name) {
    return ByteBuffer.allocate(8 + name.length()).putLong(name.hashCode() * 0x9E3779B97F4A7C15L)
        .put(name.getBytes(StandardCharsets.UTF_8)).array();
  }

  private static String name(byte[] engineKey) {
    return new String(engineKey, 8, engineKey.length - 8, StandardCharsets.UTF_8);
  }

  private void write(Datastore ds, int count) throws IOException {
    for (int i = 0; i < count; i++) {
      String key = "k" + random.nextInt(150);
      if (random.nextInt(4) == 0) {
        if (ds.delete(engineKey(key))) { // a delete of an absent key writes nothing
          history.put(ds.lastSequence(), Map.entry(key, "\0deleted"));
        }
      } else {
        String value = key + "@" + ds.lastSequence() + "x".repeat(random.nextInt(200));
        history.put(ds.put(engineKey(key), value.getBytes(StandardCharsets.UTF_8)),
            Map.entry(key, value));
      }
    }
  }

  /** The model's contents as of {@code cut}: each key's last write up to it, unless a delete. */
  private Map<String, String> modelAt(long cut) {
    Map<String, String> at = new HashMap<>();
    for (Map.Entry<String, String> w : history.headMap(cut, true).values()) {
      if (w.getValue().equals("\0deleted")) {
        at.remove(w.getKey());
      } else {
        at.put(w.getKey(), w.getValue());
      }
    }
    return at;
  }

  private static Map<String, String> readAt(Datastore ds, long cut) throws IOException {
    Map<String, String> read = new HashMap<>();
    StoreView.Entries entries = ds.readView().entriesAt(cut, 0, KeyRange.wholeRing());
    for (StoreView.Entry e = entries.next(); e != null; e = entries.next()) {
      read.put(name(e.key()), new String(e.value(), StandardCharsets.UTF_8));
    }
    return read;
  }

  private void assertMatchesFrom(Datastore ds, long floor) throws IOException {
    long last = ds.lastSequence();
    for (long cut = Math.max(floor, 1); cut <= last; cut += 1 + random.nextInt(40)) {
      assertEquals(modelAt(cut), readAt(ds, cut), "as of " + cut + " (floor " + floor + ")");
    }
    assertEquals(modelAt(last), readAt(ds, last));
    Map<String, String> now = modelAt(last);
    for (int k = 0; k < 150; k++) {
      String key = "k" + k;
      byte[] got = ds.get(engineKey(key));
      if (now.containsKey(key)) {
        assertArrayEquals(now.get(key).getBytes(StandardCharsets.UTF_8), got, key);
      } else {
        assertNull(got, key);
      }
    }
  }

  @Test
  void historyAtAndAboveTheFloorSurvivesRepeatedCompactions() throws IOException {
    Path path = dir.resolve("arc.fds");
    long floor = 0;
    try (Datastore ds = Datastore.open(path, CONFIG)) {
      for (int round = 0; round < 6; round++) {
        write(ds, 400);
        floor = Math.max(floor, ds.lastSequence() - random.nextInt(300));
        long before = ds.stats().logBytes();
        CompactionResult result = ds.compactThrough(floor, CompactionThrottle.NONE);
        assertTrue(result.bytesAfter() <= before, result.toString());
        assertEquals(floor, ds.historyFrom());
        assertMatchesFrom(ds, floor);
        long below = floor - 1;
        if (below > 0) {
          assertThrows(IllegalArgumentException.class,
              () -> ds.readView().entriesAt(below, 0, KeyRange.wholeRing()));
        }
      }
    }
    try (Datastore reopened = Datastore.open(path, CONFIG)) {
      assertEquals(floor, reopened.historyFrom());
      assertEquals(history.lastKey().longValue(), reopened.lastSequence());
      assertMatchesFrom(reopened, floor);
    }
  }

  @Test
  void aFloorAtTheLastWriteKeepsOnlyLiveRecordsAndNumbersGoOnAfterDroppedDeletes()
      throws IOException {
    Path path = dir.resolve("arc.fds");
    try (Datastore ds = Datastore.open(path, CONFIG)) {
      write(ds, 600);
      ds.put(engineKey("k1"), new byte[] {7});
      history.put(ds.lastSequence(), Map.entry("k1", "\7"));
      ds.delete(engineKey("k1"));
      history.put(ds.lastSequence(), Map.entry("k1", "\0deleted"));
      long last = ds.lastSequence();
      CompactionResult result = ds.compactThrough(last, CompactionThrottle.NONE);
      assertEquals(modelAt(last).size(), result.liveRecords());
      // Nothing but one put per live key is left, and the last record (a delete), which
      // shows how far the file reaches.
      List<Long> records = new ArrayList<>();
      ds.recordsFrom(0, (sequence, key, value) -> records.add(sequence));
      assertEquals(modelAt(last).size() + 1, records.size());
      assertEquals(last, records.get(records.size() - 1).longValue());
    }
    try (Datastore reopened = Datastore.open(path, CONFIG)) {
      long dropped = history.lastKey();
      assertTrue(reopened.put(engineKey("k2"), new byte[] {1}) > dropped,
          "a number a dropped delete carried is not handed out again");
    }
  }

  @Test
  void aFileCutShortAfterACompactionShowsHowFarItsRecordsReach() throws IOException {
    Path path = dir.resolve("arc.fds");
    long floor;
    long last;
    try (Datastore ds = Datastore.open(path, CONFIG)) {
      write(ds, 400);
      floor = ds.lastSequence();
      ds.compactThrough(floor, CompactionThrottle.NONE);
      write(ds, 100);
      last = ds.lastSequence();
    }
    try (Datastore whole = Datastore.open(path, CONFIG.toBuilder().checkpoint(false).build())) {
      assertEquals(last, whole.recordsThroughAtOpen());
    }
    // A torn card: the second half of the file gone, the index checkpoint with it.
    try (java.nio.channels.FileChannel f = java.nio.channels.FileChannel.open(path,
        java.nio.file.StandardOpenOption.WRITE)) {
      f.truncate(f.size() / 2);
    }
    java.nio.file.Files.deleteIfExists(LogSnapshot.checkpointOf(path));
    try (Datastore torn = Datastore.open(path, CONFIG.toBuilder().checkpoint(false).build())) {
      assertTrue(torn.lastSequence() >= floor, "the header still promises numbers past the floor");
      long[] seen = {0};
      torn.recordsFrom(0, (sequence, key, value) -> seen[0] = Math.max(seen[0], sequence));
      long highest = seen[0];
      assertEquals(highest, torn.recordsThroughAtOpen());
      assertTrue(highest < floor, highest + " is below the floor " + floor);
    }
  }

  @Test
  void throttleIsToldOfEveryByteReadAndAFloorBelowZeroIsRefused() throws IOException {
    try (Datastore ds = Datastore.open(dir.resolve("arc.fds"), CONFIG)) {
      write(ds, 300);
      long logBytes = ds.stats().logBytes();
      AtomicLong told = new AtomicLong();
      ds.compactThrough(ds.lastSequence() / 2, told::addAndGet);
      // Two passes over the prefix at or below the floor, one over the rest.
      assertTrue(told.get() > logBytes - DataLog.HEADER_BYTES
          && told.get() < 2 * logBytes, told + " of " + logBytes);
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> ds.compactThrough(-1, CompactionThrottle.NONE));
      assertTrue(e.getMessage().contains("arc.fds"), e.getMessage());
    }
  }
}

package org.fawnpack.kv.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link RangeMoves#splitOff}, a split that keeps one piece in place behind a range mark, against
 * a model: one file taken through writes inside and outside its range, splits in place (the
 * moved parts checked, some absorbed back later), compactions (whole, and below a random floor,
 * which copies the records above it as they are), clean reopens, reopens that must
 * rebuild the index from the log and its marks alone, kills, and splits that fail before and
 * after their mark. After each step the file holds exactly what the model says.
 */
class SplitOffTest {

  private static final int KEYS = 400;

  @TempDir
  Path dir;

  private final List<byte[]> keys = new ArrayList<>();
  private Random random;
  private Datastore store;
  /** Engine key (wrapped) to value: what {@link #store} must hold. */
  private Map<ByteBuffer, byte[]> model = new HashMap<>();
  /** Parts split off and kept open for a later absorb, with what each must hold. */
  private final List<Part> parts = new ArrayList<>();
  private int files;

  private record Part(Datastore store, Map<ByteBuffer, byte[]> model) {}

  private static DatastoreConfig config() {
    return DatastoreConfig.builder().expectedKeys(64).sync(SyncPolicy.NONE).build();
  }

  private Path storePath() {
    return dir.resolve("kept.fds");
  }

  private void setUp(long seed) throws IOException {
    random = new Random(seed);
    for (int i = 0; i < KEYS; i++) {
      keys.add(EngineKeys.of(random.nextLong(), ("key-" + i).getBytes()));
    }
    store = Datastore.open(storePath(), config());
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
  void aFileSplitInPlaceHoldsWhatTheModelSaysThroughEveryStep(long seed) throws Exception {
    setUp(seed);
    int splits = 0;
    for (int step = 0; step < 400; step++) {
      int op = random.nextInt(100);
      if (op < 60) {
        put(keys.get(random.nextInt(KEYS)));
      } else if (op < 70) {
        byte[] key = keys.get(random.nextInt(KEYS));
        store.tombstone(key);
        model.remove(ByteBuffer.wrap(key));
      } else if (op < 76) {
        splitInPlace();
        splits++;
      } else if (op < 80) {
        absorbAPart();
      } else if (op < 82) {
        store.compact();
      } else if (op < 84) { // a chain member's: history above the floor copied as it is
        store.compactThrough(random.nextLong(store.lastSequence() + 1),
            CompactionThrottle.NONE);
      } else if (op < 88) {
        store.close();
        store = Datastore.open(storePath(), config());
      } else if (op < 92) {
        store.close();
        IndexCheckpoint.delete(storePath()); // the index from the log and its marks alone
        store = Datastore.open(storePath(), config());
      } else if (op < 96) {
        store.sync();
        store.current().get().log().close(); // killed: no checkpoint written
        store = Datastore.open(storePath(), config());
      } else if (op < 98) {
        failBeforeTheMark();
      } else {
        failAfterTheMark();
      }
      assertHolds(store, model, "step " + step);
    }
    assertTrue(splits > 5, "the run split in place " + splits + " times");
    for (Part part : parts) {
      part.store().close();
    }
    store.close();
  }

  private void put(byte[] key) throws IOException {
    byte[] value = new byte[1 + random.nextInt(random.nextInt(10) == 0 ? 5_000 : 200)];
    random.nextBytes(value);
    store.put(key, value);
    model.put(ByteBuffer.wrap(key), value);
  }

  /** A kept arc and one or two moved arcs that cover the rest of the ring between them. */
  private List<KeyRange> partition() {
    long end = random.nextLong();
    long start = random.nextLong();
    List<KeyRange> ranges = new ArrayList<>();
    ranges.add(new KeyRange(start, end));
    if (random.nextBoolean()) {
      ranges.add(new KeyRange(end, start));
    } else {
      long middle = end + Long.divideUnsigned(start - end, 2);
      ranges.add(new KeyRange(end, middle));
      ranges.add(new KeyRange(middle, start));
    }
    return ranges;
  }

  private void splitInPlace() throws IOException {
    List<KeyRange> ranges = partition();
    KeyRange kept = ranges.get(0);
    List<KeyRange> moved = ranges.subList(1, ranges.size());
    List<Path> paths = newPaths(moved.size());
    List<Datastore> split = RangeMoves.splitOff(store, moved, paths, kept);
    for (int i = 0; i < moved.size(); i++) {
      Map<ByteBuffer, byte[]> partModel = takeOut(moved.get(i));
      assertHolds(split.get(i), partModel, "part " + moved.get(i));
      if (parts.size() < 2 && random.nextBoolean()) {
        parts.add(new Part(split.get(i), partModel));
      } else {
        split.get(i).close();
        try (Datastore reopened = Datastore.open(paths.get(i), config())) {
          assertHolds(reopened, partModel, "reopened part " + moved.get(i));
        }
      }
    }
    assertMovedKeysRefused(moved);
  }

  /** Moves the model's entries of {@code range} out of {@link #model}. */
  private Map<ByteBuffer, byte[]> takeOut(KeyRange range) {
    Map<ByteBuffer, byte[]> out = new HashMap<>();
    model.entrySet().removeIf(e -> {
      if (range.contains(e.getKey().array())) {
        out.put(e.getKey(), e.getValue());
        return true;
      }
      return false;
    });
    return out;
  }

  /** Until a reopen, "absent" for a moved key would be a wrong answer: it is refused. */
  private void assertMovedKeysRefused(List<KeyRange> moved) throws IOException {
    for (byte[] key : keys) {
      if (moved.stream().anyMatch(r -> r.contains(key))) {
        assertThrows(IllegalStateException.class, () -> store.get(key));
        assertThrows(IllegalStateException.class, () -> store.readView().entriesAfter(0,
            KeyRange.wholeRing()));
        return;
      }
    }
  }

  private void absorbAPart() throws IOException {
    if (parts.isEmpty()) {
      return;
    }
    Part part = parts.remove(random.nextInt(parts.size()));
    RangeMoves.absorb(store, part.store());
    model.putAll(part.model()); // the absorbed entries come after every write here
    part.store().close();
  }

  private void failBeforeTheMark() throws IOException {
    List<KeyRange> ranges = partition();
    List<Path> paths = newPaths(ranges.size() - 1);
    store.seams(seam -> {
      if (seam == TestSeams.Seam.SPLIT_PARTS_FORCED) {
        throw new IllegalStateException("test: the split stops before its mark");
      }
    });
    assertThrows(IllegalStateException.class,
        () -> RangeMoves.splitOff(store, ranges.subList(1, ranges.size()), paths, ranges.get(0)));
    store.seams(TestSeams.NONE);
    for (Path p : paths) {
      assertFalse(Files.exists(p), p + " is deleted");
      assertFalse(Files.exists(StoreFiles.checkpoint(p)), p + "'s checkpoint is deleted");
    }
    // Nothing changed: the next steps write to and check the whole file as before.
  }

  private void failAfterTheMark() throws IOException {
    List<KeyRange> ranges = partition();
    List<KeyRange> moved = ranges.subList(1, ranges.size());
    List<Path> paths = newPaths(moved.size());
    store.seams(seam -> {
      if (seam == TestSeams.Seam.SPLIT_MARKED) {
        throw new IllegalStateException("test: the split stops after its mark");
      }
    });
    IOException e = assertThrows(IOException.class,
        () -> RangeMoves.splitOff(store, moved, paths, ranges.get(0)));
    assertTrue(e.getMessage().contains("after its range mark"), e.getMessage());
    assertThrows(IllegalStateException.class, () -> store.put(keys.get(0), new byte[1]),
        "the store is closed");
    for (int i = 0; i < moved.size(); i++) {
      try (Datastore part = Datastore.open(paths.get(i), config())) {
        assertHolds(part, takeOut(moved.get(i)), "kept part " + moved.get(i));
      }
    }
    store = Datastore.open(storePath(), config());
  }

  private List<Path> newPaths(int count) {
    List<Path> paths = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      paths.add(dir.resolve("part-" + files++ + ".fds"));
    }
    return paths;
  }

  /** {@code ds} holds exactly {@code expected}: every universe key read, and its size. */
  private void assertHolds(Datastore ds, Map<ByteBuffer, byte[]> expected, String when)
      throws IOException {
    for (byte[] key : keys) {
      byte[] want = expected.get(ByteBuffer.wrap(key));
      byte[] got;
      try {
        got = ds.get(key);
      } catch (IllegalStateException refused) {
        if (want != null) {
          fail(when + ": a key the file holds was refused: " + refused.getMessage());
        }
        continue;
      }
      if (want == null) {
        assertNull(got, when + ": a key the file must not hold");
      } else {
        assertArrayEquals(want, got, when);
      }
    }
    assertEquals(expected.size(), ds.size(), when + ": live keys");
  }

  @Test
  void aLiveKeyInNoRangeFailsTheSplitAndChangesNothing() throws Exception {
    setUp(40);
    for (int i = 0; i < 100; i++) {
      put(keys.get(i));
    }
    Path part = dir.resolve("part.fds");
    // Kept (2^63, 2^64 - 1], moved (0, 2^62]: a quarter of the ring (and 0) is in neither.
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> RangeMoves.splitOff(store, List.of(new KeyRange(0, 1L << 62)), List.of(part),
            new KeyRange(Long.MIN_VALUE, -1)));
    assertTrue(e.getMessage().contains("lies in none of the moved ranges"), e.getMessage());
    assertFalse(Files.exists(part));
    assertHolds(store, model, "after the refused split");
    store.close();
  }

  /**
   * The mark is forced before the split returns: a power cut that takes every byte written
   * after it (writes not yet forced) leaves the file narrowed, with the moved keys in the part.
   */
  @Test
  void aPowerCutAfterTheSplitKeepsTheMark() throws Exception {
    setUp(43);
    for (byte[] key : keys) {
      put(key);
    }
    KeyRange moved = new KeyRange(0, Long.MIN_VALUE);
    Path part = dir.resolve("half.fds");
    RangeMoves.splitOff(store, List.of(moved), List.of(part), new KeyRange(Long.MIN_VALUE, 0))
        .get(0).close();
    Map<ByteBuffer, byte[]> partModel = takeOut(moved);
    Map<ByteBuffer, byte[]> atSplit = new HashMap<>(model);
    long forced = store.current().get().log().forcedBytes();
    for (int i = 0; i < 50; i++) {
      put(keys.get(random.nextInt(KEYS))); // never forced: the cut takes them
    }
    store.current().get().log().close();
    try (java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(storePath(),
        java.nio.file.StandardOpenOption.WRITE)) {
      channel.truncate(Math.max(forced, DataLog.HEADER_BYTES)); // -1: never forced
    }
    IndexCheckpoint.delete(storePath());
    try (Datastore reopened = Datastore.open(storePath(), config())) {
      assertHolds(reopened, atSplit, "after the cut");
    }
    try (Datastore reopened = Datastore.open(part, config())) {
      assertHolds(reopened, partModel, "the part after the cut");
    }
  }

  @Test
  void overlappingRangesAreRefusedByName() throws Exception {
    setUp(41);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> RangeMoves.splitOff(store, List.of(new KeyRange(0, 100)),
            List.of(dir.resolve("p.fds")), new KeyRange(50, 200)));
    assertTrue(e.getMessage().contains("overlap"), e.getMessage());
    store.close();
  }

  @Test
  void theKeptFileIsNotRewrittenAndOnlyTheMovedBytesAreWritten() throws Exception {
    setUp(42);
    for (byte[] key : keys) {
      put(key);
    }
    store.sync();
    long before = Files.size(storePath());
    KeyRange moved = new KeyRange(0, Long.MIN_VALUE); // the lower half of the ring
    Path part = dir.resolve("half.fds");
    List<Datastore> split = RangeMoves.splitOff(store, List.of(moved), List.of(part),
        new KeyRange(Long.MIN_VALUE, 0));
    long after = Files.size(storePath());
    assertTrue(after - before < 64, "the kept file grew by its mark only: " + (after - before));
    assertEquals(3, ByteBuffer.wrap(Files.readAllBytes(storePath())).getInt(8),
        "its header says it may hold range marks (format version 3)");
    Map<ByteBuffer, byte[]> partModel = takeOut(moved);
    assertHolds(split.get(0), partModel, "moved half");
    assertTrue(Files.size(part) < before * 3 / 4, "the part holds about half: "
        + Files.size(part) + " of " + before);
    split.get(0).close();
    store.close();
  }
}

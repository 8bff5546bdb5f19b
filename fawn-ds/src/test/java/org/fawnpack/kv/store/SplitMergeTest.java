package org.fawnpack.kv.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SplitMergeTest {

  @TempDir
  Path dir;

  /** Fills a datastore with puts, overwrites and deletes; returns the model. */
  private static Model fill(Datastore ds, Random random, int count, List<byte[]> keys)
      throws IOException {
    Model model = new Model();
    for (int i = 0; i < count; i++) {
      byte[] key = !keys.isEmpty() && random.nextInt(5) == 0
          ? keys.get(random.nextInt(keys.size())) : Model.randomBytes(random, 20);
      if (random.nextInt(8) == 0) {
        ds.delete(key);
        model.delete(key);
      } else {
        byte[] value = Model.randomBytes(random, random.nextInt(200));
        ds.put(key, value);
        model.put(key, value);
        keys.add(key);
      }
    }
    return model;
  }

  @Test
  void splitThenMerge_givesBackTheSameContents() throws IOException {
    Random random = new Random(21);
    List<byte[]> keys = new ArrayList<>();
    DatastoreConfig config = DatastoreConfig.builder().sync(SyncPolicy.NONE).build();
    try (Datastore whole = Datastore.open(dir.resolve("whole.fds"), config)) {
      Model model = fill(whole, random, 6_000, keys);
      long position = 0x8000_0000_0000_0000L;
      RangeMoves.SplitResult parts = RangeMoves.split(whole, position, dir.resolve("low.fds"),
          dir.resolve("high.fds"));
      try (Datastore low = parts.lower(); Datastore high = parts.upper()) {
        Model lowModel = new Model();
        Model highModel = new Model();
        for (Map.Entry<ByteBuffer, byte[]> e : model.entries.entrySet()) {
          byte[] key = e.getKey().array();
          boolean isLow = Long.compareUnsigned(RingPositions.of(key), position) <= 0;
          (isLow ? lowModel : highModel).put(key, e.getValue());
        }
        lowModel.assertHeldBy(low, keys);
        highModel.assertHeldBy(high, keys);
        assertTrue(lowModel.entries.size() > 1000 && highModel.entries.size() > 1000);
        model.assertHeldBy(whole, keys);

        RangeMoves.merge(low, high);
        model.assertHeldBy(low, keys);
        highModel.assertHeldBy(high, keys);
      }
      try (Datastore reopened = Datastore.open(dir.resolve("low.fds"), config)) {
        model.assertHeldBy(reopened, keys);
      }
    }
  }

  @Test
  void splitArc_wrappingLowerArc_keysByArc_lowerNumbersAfterItsOwnRecords() throws IOException {
    Random random = new Random(23);
    DatastoreConfig config = DatastoreConfig.builder().sync(SyncPolicy.NONE).build();
    KeyRange lowerArc = new KeyRange(0xC000_0000_0000_0000L, 0x4000_0000_0000_0000L); // wraps
    try (Datastore whole = Datastore.open(dir.resolve("arc.fds"), config)) {
      Model lowModel = new Model();
      Model highModel = new Model();
      Map<ByteBuffer, Long> lastPut = new java.util.HashMap<>();
      List<byte[]> keys = new ArrayList<>();
      for (int i = 0; i < 4_000; i++) {
        byte[] key = !keys.isEmpty() && random.nextInt(4) == 0
            ? keys.get(random.nextInt(keys.size())) : Model.randomBytes(random, 16);
        byte[] value = Model.randomBytes(random, random.nextInt(100));
        lastPut.put(ByteBuffer.wrap(key), whole.put(key, value));
        (lowerArc.contains(RingPositions.of(key)) ? lowModel : highModel).put(key, value);
        keys.add(key);
      }
      long lowerMax = lastPut.entrySet().stream()
          .filter(e -> lowerArc.contains(RingPositions.of(e.getKey().array())))
          .mapToLong(Map.Entry::getValue).max().orElseThrow();
      RangeMoves.SplitResult parts = RangeMoves.splitArc(whole, lowerArc, dir.resolve("lower.fds"),
          dir.resolve("upper.fds"));
      try (Datastore lower = parts.lower(); Datastore upper = parts.upper()) {
        lowModel.assertHeldBy(lower, keys);
        highModel.assertHeldBy(upper, keys);
        assertTrue(lowModel.entries.size() > 1000 && highModel.entries.size() > 1000);
        assertEquals(lowerMax, lower.lastSequence(), "the lower part numbers after its own");
        assertEquals(whole.lastSequence(), upper.lastSequence(), "the upper part goes on");
      }
      try (Datastore reopened = Datastore.open(dir.resolve("lower.fds"), config)) {
        assertEquals(lowerMax, reopened.lastSequence(), "and so after a restart");
      }
    }
  }

  @Test
  void merge_sameKeyInBoth_otherWins() throws IOException {
    try (Datastore a = Datastore.open(dir.resolve("a.fds"), DatastoreConfig.defaults());
        Datastore b = Datastore.open(dir.resolve("b.fds"), DatastoreConfig.defaults())) {
      a.put(new byte[] {1}, new byte[] {1});
      b.put(new byte[] {1}, new byte[] {2});
      b.put(new byte[] {3}, new byte[] {3});
      RangeMoves.merge(a, b);
      assertEquals(2, a.get(new byte[] {1})[0]);
      assertEquals(3, a.get(new byte[] {3})[0]);
      assertEquals(2, a.size());
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> RangeMoves.merge(a, a));
      assertTrue(e.getMessage().contains("a.fds"), e.getMessage());
    }
  }

  @Test
  void merge_intoAnIndexTooSmall_rebuildsItAndOtherWins_alsoAfterReopen() throws IOException {
    Random random = new Random(33);
    DatastoreConfig small = DatastoreConfig.builder().sync(SyncPolicy.NONE).expectedKeys(1)
        .build();
    Model model = new Model();
    List<byte[]> keys = new ArrayList<>();
    try (Datastore target = Datastore.open(dir.resolve("t.fds"), small);
        Datastore other = Datastore.open(dir.resolve("o.fds"), small)) {
      for (int i = 0; i < 1_000; i++) {
        byte[] key = Model.randomBytes(random, 20);
        byte[] value = Model.randomBytes(random, random.nextInt(100));
        target.put(key, value);
        model.put(key, value);
        keys.add(key);
      }
      for (int i = 0; i < 5_000; i++) {
        // Every tenth key is one the target holds too: other's value must win.
        byte[] key = i % 10 == 0 ? keys.get(i / 10) : Model.randomBytes(random, 20);
        byte[] value = Model.randomBytes(random, random.nextInt(100));
        other.put(key, value);
        model.put(key, value);
        keys.add(key);
      }
      long capacityBefore = target.stats().indexBuckets();
      RangeMoves.merge(target, other);
      assertTrue(target.stats().indexBuckets() > capacityBefore, "the index did not grow");
      model.assertHeldBy(target, keys);
    }
    try (Datastore reopened = Datastore.open(dir.resolve("t.fds"), small)) {
      model.assertHeldBy(reopened, keys);
    }
  }

  @Test
  void split_targetExists_throwsNamingIt() throws IOException {
    Files.writeString(dir.resolve("taken.fds"), "x");
    try (Datastore ds = Datastore.open(dir.resolve("src.fds"), DatastoreConfig.defaults())) {
      Exception e = assertThrows(java.nio.file.FileAlreadyExistsException.class,
          () -> RangeMoves.split(ds, 5, dir.resolve("taken.fds"), dir.resolve("other.fds")));
      assertTrue(e.getMessage().contains("taken.fds"));
    }
  }

  @Test
  void compact_dropsStaleVersionsAndKeepsLiveOnes() throws IOException {
    Random random = new Random(4);
    List<byte[]> keys = new ArrayList<>();
    try (Datastore ds = Datastore.open(dir.resolve("compact.fds"), DatastoreConfig.defaults())) {
      Model model = fill(ds, random, 5_000, keys);
      CompactionResult result = ds.compact();
      assertTrue(result.bytesAfter() < result.bytesBefore(), result.toString());
      assertEquals(model.entries.size(), result.liveRecords());
      assertEquals(result.bytesAfter(), Files.size(dir.resolve("compact.fds")));
      model.assertHeldBy(ds, keys);
    }
  }

  @Test
  void datastoreSet_routesSplitsMergesAndReopens() throws IOException {
    Random random = new Random(8);
    Path setDir = dir.resolve("set");
    Model model = new Model();
    List<byte[]> keys = new ArrayList<>();
    try (DatastoreSet set = DatastoreSet.open(setDir, DatastoreConfig.defaults())) {
      set.create(KeyRange.wholeRing());
      for (int i = 0; i < 3_000; i++) {
        byte[] key = Model.randomBytes(random, 20);
        byte[] value = Model.randomBytes(random, 30);
        set.put(key, value);
        model.put(key, value);
        keys.add(key);
      }
      List<KeyRange> halves = set.split(KeyRange.wholeRing(), 0x4000_0000_0000_0000L);
      set.split(halves.get(1), 0xc000_0000_0000_0000L);
      assertEquals(3, set.ranges().size());
      for (byte[] key : keys) {
        assertEquals(ByteBuffer.wrap(model.get(key)), ByteBuffer.wrap(set.get(key)));
        Datastore holder = set.datastoreFor(key);
        KeyRange range = set.datastores().entrySet().stream()
            .filter(e -> e.getValue() == holder).findFirst().orElseThrow().getKey();
        assertTrue(range.contains(key));
      }
      IllegalArgumentException overlap = assertThrows(IllegalArgumentException.class,
          () -> set.create(new KeyRange(1, 2)));
      assertTrue(overlap.getMessage().contains("overlaps"), overlap.getMessage());
    }
    try (DatastoreSet set = DatastoreSet.open(setDir, DatastoreConfig.defaults())) {
      assertEquals(3, set.ranges().size());
      KeyRange a = new KeyRange(0x4000_0000_0000_0000L, 0xc000_0000_0000_0000L);
      KeyRange b = new KeyRange(0xc000_0000_0000_0000L, 0);
      assertEquals(new KeyRange(0x4000_0000_0000_0000L, 0), set.merge(a, b));
      assertEquals(2, set.ranges().size());
      for (byte[] key : keys) {
        assertEquals(ByteBuffer.wrap(model.get(key)), ByteBuffer.wrap(set.get(key)));
      }
    }
    try (var files = Files.list(setDir)) {
      assertEquals(2, files.filter(p -> p.toString().endsWith(".fds")).count(),
          "the merged and split-off files were deleted");
    }
  }
}

package org.fawnpack.kv.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Seeded random operation sequences checked against a HashMap model. */
class DatastoreOracleTest {

  @TempDir
  Path dir;

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3})
  void randomOperations_matchHashMapModel(long seed) throws IOException {
    runRandomOperations(seed, 12_000, 1_500);
  }

  @Tag("long")
  @ParameterizedTest
  @ValueSource(longs = {11, 12, 13, 14, 15})
  void randomOperations_longRun(long seed) throws IOException {
    runRandomOperations(seed, 400_000, 60_000);
  }

  /**
   * Puts (some overwrites, some values up to 64 KiB), deletes, gets and contains over a key
   * pool; the store is closed and reopened, compacted, and reopened without its checkpoint now
   * and then, and checked against the model each time.
   */
  private void runRandomOperations(long seed, int operations, int poolSize) throws IOException {
    Random random = new Random(seed);
    List<byte[]> pool = new ArrayList<>();
    for (int i = 0; i < poolSize; i++) {
      pool.add(Model.randomBytes(random, 1 + random.nextInt(random.nextInt(10) == 0 ? 300 : 24)));
    }
    Path file = dir.resolve("oracle-" + seed + ".fds");
    DatastoreConfig config = DatastoreConfig.builder().expectedKeys(16).sync(SyncPolicy.NONE)
        .build();
    Model model = new Model();
    Datastore ds = Datastore.open(file, config);
    try {
      for (int op = 1; op <= operations; op++) {
        byte[] key = pool.get(random.nextInt(pool.size()));
        int dice = random.nextInt(100);
        if (dice < 50) {
          int length = random.nextInt(100) == 0 ? random.nextInt(65_536) : random.nextInt(250);
          byte[] value = Model.randomBytes(random, length);
          ds.put(key, value);
          model.put(key, value);
        } else if (dice < 65) {
          assertEquals(model.delete(key), ds.delete(key), "delete result");
        } else if (dice < 90) {
          assertArrayEquals(model.get(key), ds.get(key));
        } else {
          assertEquals(model.get(key) != null, ds.contains(key));
        }
        if (op % (operations / 4) == 0) {
          ds.close();
          ds = Datastore.open(file, config);
          assertTrue(ds.recoveryReport().fromCheckpoint());
          model.assertHeldBy(ds, pool);
        } else if (op % (operations / 3) == 0) {
          ds.compact();
          model.assertHeldBy(ds, pool);
        } else if (op % (operations / 5) == 0) {
          ds.close();
          IndexCheckpoint.delete(file);
          ds = Datastore.open(file, config);
          assertEquals(false, ds.recoveryReport().fromCheckpoint());
          model.assertHeldBy(ds, pool);
        }
      }
      model.assertHeldBy(ds, pool);
    } finally {
      ds.close();
    }
  }

  /** Keys chosen so that all share one 15-bit fragment: each hit is confirmed by the full key. */
  @Test
  void get_keysWithCollidingFragments() throws IOException {
    Random random = new Random(7);
    List<byte[]> keys = new ArrayList<>();
    int fragment = -1;
    while (keys.size() < 40) {
      byte[] key = Model.randomBytes(random, 20);
      int f = KeyHash.fragment(KeyHash.of(key));
      if (fragment < 0) {
        fragment = f;
      }
      if (f == fragment) {
        keys.add(key);
      }
    }
    Path file = dir.resolve("colliding.fds");
    DatastoreConfig config = DatastoreConfig.builder().expectedKeys(1).build();
    try (Datastore ds = Datastore.open(file, config)) {
      for (int i = 0; i < keys.size(); i++) {
        ds.put(keys.get(i), new byte[] {(byte) i});
      }
      for (int i = 0; i < keys.size(); i++) {
        assertArrayEquals(new byte[] {(byte) i}, ds.get(keys.get(i)));
      }
      for (int i = 0; i < keys.size(); i += 2) {
        assertTrue(ds.delete(keys.get(i)));
      }
      for (int i = 0; i < keys.size(); i++) {
        if (i % 2 == 0) {
          assertNull(ds.get(keys.get(i)));
        } else {
          assertArrayEquals(new byte[] {(byte) i}, ds.get(keys.get(i)));
        }
      }
      DatastoreStats stats = ds.stats();
      assertTrue(stats.fragmentFalsePositives() > 0,
          "reads of another key with the same fragment are counted: " + stats);
      assertEquals(stats.logReads() - stats.fragmentFalsePositives(), keys.size() * 3 / 2,
          "one confirmed read per hit");
    }
    try (Datastore ds = Datastore.open(file, config)) {
      for (int i = 1; i < keys.size(); i += 2) {
        assertArrayEquals(new byte[] {(byte) i}, ds.get(keys.get(i)));
      }
      assertEquals(keys.size() / 2, ds.size());
    }
  }

  /** An index sized for one key grows by rehashing (reading keys back from the log). */
  @Test
  void put_growsIndexFromOneKeyToMany() throws IOException {
    Random random = new Random(5);
    Model model = new Model();
    try (Datastore ds = Datastore.open(dir.resolve("grow.fds"),
        DatastoreConfig.builder().expectedKeys(1).loadFactor(0.9).build())) {
      for (int i = 0; i < 30_000; i++) {
        byte[] key = Model.randomBytes(random, 20);
        byte[] value = Model.randomBytes(random, 40);
        ds.put(key, value);
        model.put(key, value);
      }
      model.assertHeldBy(ds, List.of());
      DatastoreStats stats = ds.stats();
      assertEquals(1 << 16, stats.indexBuckets(), "2^16 buckets hold 30,000 keys at 0.9");
      assertEquals(6L << 16, stats.indexBytes());
    }
  }
}

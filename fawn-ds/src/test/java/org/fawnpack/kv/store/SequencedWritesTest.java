package org.fawnpack.kv.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A chain's replica stores the head's records under the head's sequence numbers: a replica fed
 * the head's stream (with resends mixed in, across a compaction and a reopen) holds what a model
 * of the operations holds, ends on the head's last sequence number, and ignores every resend.
 */
class SequencedWritesTest {
  @TempDir
  Path dir;

  private record Shipped(boolean put, byte[] key, byte[] value, long sequence) {}

  private static boolean apply(Datastore replica, Shipped r) throws IOException {
    return r.put() ? replica.putAt(r.key(), r.value(), r.sequence())
        : replica.deleteAt(r.key(), r.sequence());
  }

  @Test
  void putAtAndDeleteAt_headsStreamWithResends_replicaMatchesModelAndHead() throws IOException {
    Random random = new Random(61);
    DatastoreConfig config = DatastoreConfig.builder().expectedKeys(64).build();
    Model model = new Model();
    List<byte[]> keys = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      keys.add(Model.randomBytes(random, 1 + random.nextInt(20)));
    }
    List<Shipped> shipped = new ArrayList<>();
    int delivered = 0;
    try (Datastore head = Datastore.open(dir.resolve("head.fds"), config)) {
      Datastore replica = Datastore.open(dir.resolve("replica.fds"), config);
      try {
        for (int op = 0; op < 3_000; op++) {
          byte[] key = keys.get(random.nextInt(keys.size()));
          if (random.nextInt(4) == 0) {
            boolean present = head.contains(key);
            assertEquals(model.delete(key), present, "presence before the delete");
            shipped.add(new Shipped(false, key, null, head.tombstone(key)));
          } else {
            byte[] value = Model.randomBytes(random, random.nextInt(100));
            model.put(key, value);
            shipped.add(new Shipped(true, key, value, head.put(key, value)));
          }
          Shipped latest = shipped.get(delivered++);
          assertTrue(apply(replica, latest), "first delivery of " + latest.sequence());
          if (random.nextInt(10) == 0) { // a predecessor resends part of its sent list
            Shipped old = shipped.get(random.nextInt(shipped.size()));
            assertFalse(apply(replica, old), "resend of " + old.sequence() + " applied again");
          }
          if (op == 1_000) {
            replica.compact();
          }
          if (op == 2_000) {
            replica.close();
            replica = Datastore.open(dir.resolve("replica.fds"), config);
          }
        }
        model.assertHeldBy(replica, keys);
        assertEquals(Model.scan(head), Model.scan(replica));
        assertEquals(head.lastSequence(), replica.lastSequence());
        for (Shipped old : shipped.subList(0, 100)) {
          assertFalse(apply(replica, old), "resend of " + old.sequence() + " after the reopen");
        }
        model.assertHeldBy(replica, keys);
      } finally {
        replica.close();
      }
    }
  }

  @Test
  void deleteAt_keyAbsentHere_tombstoneKeepsTheNumberAcrossReopen() throws IOException {
    DatastoreConfig config = DatastoreConfig.builder().expectedKeys(4).build();
    Path file = dir.resolve("r.fds");
    try (Datastore replica = Datastore.open(file, config)) {
      assertTrue(replica.putAt(new byte[] {1}, new byte[] {9}, 5));
      assertTrue(replica.deleteAt(new byte[] {2}, 8));
      assertEquals(8, replica.lastSequence());
    }
    try (Datastore replica = Datastore.open(file, config)) {
      assertEquals(8, replica.lastSequence());
      assertFalse(replica.deleteAt(new byte[] {2}, 8));
      assertFalse(replica.putAt(new byte[] {1}, new byte[] {7}, 6));
      assertEquals(9, replica.get(new byte[] {1})[0]);
      assertEquals(9, replica.put(new byte[] {3}, new byte[0]), "numbering goes on after 8");
    }
  }

  @Test
  void putAtAndTombstone_edgeCases_refusedOrNumbered() throws IOException {
    try (Datastore ds = Datastore.open(dir.resolve("x.fds"),
        DatastoreConfig.builder().expectedKeys(4).build())) {
      assertThrows(IllegalArgumentException.class, () -> ds.putAt(new byte[] {1}, new byte[0], 0));
      assertThrows(IllegalArgumentException.class, () -> ds.deleteAt(new byte[] {1}, -3));
      assertEquals(1, ds.tombstone(new byte[] {1}), "absent: a tombstone all the same");
      assertEquals(1, ds.lastSequence());
      assertEquals(null, ds.get(new byte[] {1}));
    }
  }
}

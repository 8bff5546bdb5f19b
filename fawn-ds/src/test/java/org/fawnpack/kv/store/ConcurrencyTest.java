package org.fawnpack.kv.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

class ConcurrencyTest {

  private static final int KEYS = 4_000;

  @TempDir
  Path dir;

  private static byte[] key(int i) {
    return ByteBuffer.allocate(12).putInt(0x6b657900).putLong(i).array();
  }

  /** Value of version v of key i: i, v, then filler, so a reader can tell what it got. */
  private static byte[] value(int i, int version) {
    ByteBuffer b = ByteBuffer.allocate(8 + (i + version) % 150);
    b.putInt(i).putInt(version);
    while (b.hasRemaining()) {
      b.put((byte) (i ^ version));
    }
    return b.array();
  }

  /**
   * Two readers check every value they get (right key, a version that was written, never
   * older than the version committed before the get started) while a writer updates and
   * deletes and the store is compacted again and again; the end state matches the writer's
   * model.
   */
  @Test
  void get_duringCompactionAndWrites_seesCommittedValues() throws Exception {
    DatastoreConfig config = DatastoreConfig.builder().sync(SyncPolicy.NONE).build();
    Datastore ds = Datastore.open(dir.resolve("concurrent.fds"), config);
    // committed[i] = latest version of key i known written (-1 = deleted).
    AtomicIntegerArray committed = new AtomicIntegerArray(KEYS);
    for (int i = 0; i < KEYS; i++) {
      ds.put(key(i), value(i, 0));
    }
    AtomicBoolean stop = new AtomicBoolean();
    ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
    AtomicLong reads = new AtomicLong();
    ExecutorService pool = Executors.newFixedThreadPool(4);
    List<Future<?>> tasks = new ArrayList<>();
    tasks.add(pool.submit(() -> {
      Random random = new Random(1);
      int[] versions = new int[KEYS];
      while (!stop.get()) {
        int i = random.nextInt(KEYS);
        if (random.nextInt(10) == 0 && committed.get(i) >= 0) {
          ds.delete(key(i));
          committed.set(i, -1);
        } else {
          int v = ++versions[i];
          ds.put(key(i), value(i, v));
          committed.set(i, v);
        }
      }
      return null;
    }));
    for (int r = 0; r < 2; r++) {
      int seed = r;
      tasks.add(pool.submit(() -> {
        Random random = new Random(100 + seed);
        while (!stop.get()) {
          int i = random.nextInt(KEYS);
          int before = committed.get(i);
          byte[] got = ds.get(key(i));
          reads.incrementAndGet();
          if (got == null) {
            continue; // deletes race with the read; the final check covers deleted keys
          }
          ByteBuffer b = ByteBuffer.wrap(got);
          int k = b.getInt();
          int v = b.getInt();
          if (k != i || !java.util.Arrays.equals(got, value(i, v))) {
            problems.add("key " + i + " read a value of key " + k + " version " + v);
          } else if (before >= 0 && v < before) {
            problems.add("key " + i + " read version " + v + " after " + before + " committed");
          }
        }
        return null;
      }));
    }
    tasks.add(pool.submit(() -> {
      for (int c = 0; c < 5; c++) {
        Thread.sleep(150);
        ds.compact();
      }
      return null;
    }));
    tasks.get(tasks.size() - 1).get(60, TimeUnit.SECONDS);
    stop.set(true);
    for (Future<?> t : tasks) {
      t.get(60, TimeUnit.SECONDS);
    }
    pool.shutdown();
    assertTrue(problems.isEmpty(), () -> problems.size() + " problems, first: " + problems.peek());
    assertTrue(reads.get() > 1000, "readers ran: " + reads.get());
    Model model = new Model();
    List<byte[]> all = new ArrayList<>();
    for (int i = 0; i < KEYS; i++) {
      all.add(key(i));
      if (committed.get(i) >= 0) {
        model.put(key(i), value(i, committed.get(i)));
      }
    }
    model.assertHeldBy(ds, all);
    ds.close();
    try (Datastore reopened = Datastore.open(dir.resolve("concurrent.fds"), config)) {
      model.assertHeldBy(reopened, all);
    }
  }

  @Test
  void put_fromManyThreads_allKeysKept() throws Exception {
    try (Datastore ds = Datastore.open(dir.resolve("threads.fds"),
        DatastoreConfig.builder().expectedKeys(1).build())) {
      ExecutorService pool = Executors.newFixedThreadPool(4);
      List<Future<?>> tasks = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int thread = t;
        tasks.add(pool.submit(() -> {
          for (int i = thread; i < 20_000; i += 4) {
            ds.put(key(i), value(i, 1));
          }
          return null;
        }));
      }
      for (Future<?> task : tasks) {
        task.get(60, TimeUnit.SECONDS);
      }
      pool.shutdown();
      for (int i = 0; i < 20_000; i++) {
        assertArrayEquals(value(i, 1), ds.get(key(i)));
      }
      assertEquals(20_000, ds.size());
    }
  }

  @Test
  void close_twice_isIdempotentAndLaterCallsFail() throws IOException {
    Datastore ds = Datastore.open(dir.resolve("close.fds"), DatastoreConfig.defaults());
    ds.put(key(1), value(1, 1));
    ds.close();
    assertDoesNotThrow(ds::close);
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> ds.get(key(1)));
    assertTrue(e.getMessage().contains("close.fds"), e.getMessage());
    assertThrows(IllegalStateException.class, () -> ds.put(key(2), value(2, 1)));
    List<Executable> refused = List.of(() -> ds.contains(key(1)), () -> ds.delete(key(1)),
        () -> ds.scan((k, v) -> { }), ds::compact, ds::sync, () -> ds.awaitDurable(1),
        () -> RangeMoves.split(ds, 0, dir.resolve("l.fds"), dir.resolve("u.fds")));
    for (Executable call : refused) {
      IllegalStateException refusal = assertThrows(IllegalStateException.class, call);
      assertTrue(refusal.getMessage().contains("close.fds"), refusal.getMessage());
    }
    // What describes the closed store still answers, as the Javadoc says.
    assertEquals(1, ds.size());
    assertEquals(1, ds.lastSequence());
    assertEquals(1, ds.durableSequence());
    assertEquals(1, ds.stats().liveKeys());
  }
}

package org.fawnpack.kv.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Datastore#whenDurable}: a write's future completes only once the store's durable
 * sequence covers it, one force serves every write made before it (group commit, counted at the
 * sync seam), and a failed force fails its waiters instead of leaving them hanging.
 */
class GroupCommitTest {
  @TempDir
  Path dir;

  /** No background syncs: every force a test sees is one a waiter asked for. */
  private Datastore open(String name) throws IOException {
    return Datastore.open(dir.resolve(name), DatastoreConfig.builder().expectedKeys(1024)
        .sync(SyncPolicy.NONE).build());
  }

  /** Counts the syncs that choose a log to force (each force passes that seam once). */
  private static AtomicInteger countForces(Datastore ds) {
    AtomicInteger forces = new AtomicInteger();
    ds.seams(seam -> {
      if (seam == TestSeams.Seam.SYNC_LOG_CHOSEN) {
        forces.incrementAndGet();
      }
    });
    return forces;
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void whenDurable_writesMadeBeforeTheFirstForce_oneForceCoversAll() throws Exception {
    try (Datastore ds = open("one-force.fds")) {
      AtomicInteger forces = countForces(ds);
      List<Long> sequences = new ArrayList<>();
      for (int i = 0; i < 100; i++) {
        sequences.add(ds.put(bytes("k" + i), bytes("v" + i)));
      }
      List<CompletableFuture<Void>> waits = new ArrayList<>();
      for (long s : sequences) {
        waits.add(ds.whenDurable(s));
      }
      CompletableFuture.allOf(waits.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
      assertEquals(1, forces.get(), "forces for 100 writes all made before the first force");
      assertTrue(ds.durableSequence() >= sequences.get(sequences.size() - 1));
    }
  }

  @Test
  void whenDurable_concurrentWriters_eachCompletesOnlyOnceItsWriteIsDurable() throws Exception {
    try (Datastore ds = open("concurrent.fds")) {
      AtomicInteger forces = countForces(ds);
      ConcurrentLinkedQueue<String> early = new ConcurrentLinkedQueue<>();
      ConcurrentLinkedQueue<CompletableFuture<Void>> waits = new ConcurrentLinkedQueue<>();
      List<Thread> writers = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int writer = t;
        writers.add(new Thread(() -> {
          for (int i = 0; i < 250; i++) {
            try {
              long s = ds.put(bytes(writer + "-" + i), bytes("v" + i));
              waits.add(ds.whenDurable(s).thenRun(() -> {
                if (ds.durableSequence() < s) { // the oracle: the store's own durable mark
                  early.add("write " + s + " completed at durable " + ds.durableSequence());
                }
              }));
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
          }
        }));
      }
      writers.forEach(Thread::start);
      for (Thread w : writers) {
        w.join(60_000);
        assertFalse(w.isAlive(), "writer still running");
      }
      CompletableFuture.allOf(waits.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
      assertEquals(1_000, waits.size());
      assertEquals(List.of(), List.copyOf(early));
      assertTrue(forces.get() <= 1_000, "at most one force per write: " + forces.get());
    }
  }

  @Test
  void whenDurable_alreadyDurable_completesAtOnce_unwrittenSequence_refused() throws Exception {
    try (Datastore ds = open("at-once.fds")) {
      long s = ds.put(bytes("k"), bytes("v"));
      ds.sync();
      assertTrue(ds.whenDurable(s).isDone());
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> ds.whenDurable(s + 1));
      assertTrue(e.getMessage().contains("at-once.fds"), e.getMessage());
    }
  }

  @Test
  void whenDurable_forceFails_waitersFail_thenALaterForceSucceeds() throws Exception {
    try (Datastore ds = open("fails.fds")) {
      UncheckedIOException broken = new UncheckedIOException(new IOException("device gone"));
      AtomicBoolean failing = new AtomicBoolean(true);
      ds.seams(seam -> {
        if (seam == TestSeams.Seam.SYNC_LOG_CHOSEN && failing.get()) {
          throw broken;
        }
      });
      long first = ds.put(bytes("a"), bytes("1"));
      ExecutionException e = assertThrows(ExecutionException.class,
          () -> ds.whenDurable(first).get(30, TimeUnit.SECONDS));
      assertSame(broken, e.getCause());
      assertTrue(ds.durableSequence() < first, "a failed force marks nothing durable");
      failing.set(false);
      long second = ds.put(bytes("b"), bytes("2"));
      ds.whenDurable(second).get(30, TimeUnit.SECONDS);
      assertTrue(ds.durableSequence() >= second);
    }
  }
}

package org.fawnpack.kv.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.fawnpack.kv.store.TestSeams.Seam;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writes and syncs racing a compaction. Each race is forced with {@link SeamLatch} (one thread
 * held at the seam until the other has passed the point that mattered), so it happens in every
 * run; the bounded stress test below runs the same race unforced, widened by a yield.
 */
class CompactionRaceTest {

  private static final DatastoreConfig NO_BACKGROUND_SYNC =
      DatastoreConfig.builder().sync(SyncPolicy.NONE).build();
  private static final long HOLD_MILLIS = 500;

  @TempDir
  Path dir;

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  /**
   * A put that has appended its record but not yet pointed its bucket when the compaction
   * copies: the compaction must carry the put over, not the value it replaced.
   */
  @Test
  void compact_putAppendedButNotIndexedWhileCopying_newValueKept() throws Exception {
    Path file = dir.resolve("put-race.fds");
    byte[] key = bytes("key-7");
    try (Datastore ds = Datastore.open(file, NO_BACKGROUND_SYNC)) {
      SeamLatch seams = fillAndHold(ds, Seam.WRITE_APPENDED, Seam.COMPACTION_COPIED);
      Thread writer = inThread(() -> ds.put(key, bytes("new-7")));
      assertTrue(seams.awaitQuietly(Seam.WRITE_APPENDED, 10_000), "the put reached its seam");
      ds.compact();
      join(writer);
      assertArrayEquals(bytes("new-7"), ds.get(key), "after the compaction");
      ds.sync();
    }
    try (Datastore ds = Datastore.open(file, NO_BACKGROUND_SYNC)) {
      assertArrayEquals(bytes("new-7"), ds.get(key), "after a reopen");
      assertEquals(100, ds.size());
    }
  }

  /**
   * A sync that chose its log just before a compaction swapped in a new one, then saw a write
   * made to the new log: it must not report that write durable unless it is in the file.
   */
  @Test
  void sync_choseTheLogACompactionRetires_neverCoversAWriteThatIsInNoFile() throws Exception {
    Path file = dir.resolve("sync-race.fds");
    try (Datastore ds = Datastore.open(file, NO_BACKGROUND_SYNC)) {
      SeamLatch seams = fillAndHold(ds, Seam.SYNC_LOG_CHOSEN, Seam.WRITE_APPENDED);
      Thread syncer = inThread(ds::sync);
      assertTrue(seams.awaitQuietly(Seam.SYNC_LOG_CHOSEN, 10_000), "the sync reached its seam");
      ds.compact();
      long sequence = ds.put(bytes("after-swap"), bytes("in the new log's buffer"));
      join(syncer);
      if (ds.durableSequence() >= sequence) {
        assertTrue(LogFileParser.holdsSequence(file, sequence), "durableSequence "
            + ds.durableSequence() + " covers sequence " + sequence + ", which is in no file");
      }
      ds.sync();
      assertTrue(ds.durableSequence() >= sequence);
      assertTrue(LogFileParser.holdsSequence(file, sequence), "a real sync writes it");
    }
  }

  /**
   * The reproduction, bounded: one thread overwrites 2,000 keys round-robin while
   * another compacts back to back; every key must read back its last value, then after a
   * reopen. A yield between append and index widens the window the bug needed.
   */
  @Test
  void compact_backToBackUnderOverwrites_everyKeyKeepsItsLastValue() throws Exception {
    Path file = dir.resolve("stress.fds");
    int keys = 2_000;
    byte[][] last = new byte[keys][];
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
    try (Datastore ds = Datastore.open(file, NO_BACKGROUND_SYNC)) {
      ds.seams(seam -> {
        if (seam == Seam.WRITE_APPENDED) {
          Thread.yield();
        }
      });
      AtomicReference<Throwable> failure = new AtomicReference<>();
      Thread compactor = new Thread(() -> {
        try {
          for (int round = 0; round < 10_000 && System.nanoTime() < deadline; round++) {
            ds.compact();
          }
        } catch (Throwable t) {
          failure.set(t);
        }
      });
      compactor.start();
      for (long n = 0; n < 5_000_000 && System.nanoTime() < deadline; n++) {
        int k = (int) (n % keys);
        byte[] value = new byte[64];
        java.nio.ByteBuffer.wrap(value).putLong(n).putInt(k);
        ds.put(bytes("key-" + k), value);
        last[k] = value;
      }
      compactor.join(TimeUnit.SECONDS.toMillis(30));
      if (failure.get() != null) {
        throw new AssertionError("compaction failed", failure.get());
      }
      assertLastValues(ds, last, "after the race");
    }
    try (Datastore ds = Datastore.open(file, NO_BACKGROUND_SYNC)) {
      assertLastValues(ds, last, "after a reopen");
    }
  }

  /** Puts key-0 .. key-99 = old-i, then holds the thread at {@code seam} until {@code until}. */
  private static SeamLatch fillAndHold(Datastore ds, Seam seam, Seam until) throws IOException {
    for (int i = 0; i < 100; i++) {
      ds.put(bytes("key-" + i), bytes("old-" + i));
    }
    SeamLatch seams = new SeamLatch(HOLD_MILLIS).holdAt(seam, until);
    ds.seams(seams);
    return seams;
  }

  private static void assertLastValues(Datastore ds, byte[][] last, String when)
      throws IOException {
    int stale = 0;
    for (int k = 0; k < last.length; k++) {
      if (last[k] != null && !java.util.Arrays.equals(last[k], ds.get(bytes("key-" + k)))) {
        stale++;
      }
    }
    assertEquals(0, stale, when + ": keys that read back an older value");
  }

  /** Something to run in a thread that may throw. */
  @FunctionalInterface
  interface Action {
    void run() throws Exception;
  }

  private final AtomicReference<Throwable> threadFailure = new AtomicReference<>();

  private Thread inThread(Action action) {
    Thread t = new Thread(() -> {
      try {
        action.run();
      } catch (Throwable e) {
        threadFailure.set(e);
      }
    });
    t.start();
    return t;
  }

  private void join(Thread t) throws InterruptedException {
    t.join(TimeUnit.SECONDS.toMillis(30));
    assertTrue(!t.isAlive(), "the thread finished");
    if (threadFailure.get() != null) {
      throw new AssertionError("the other thread failed", threadFailure.get());
    }
  }
}

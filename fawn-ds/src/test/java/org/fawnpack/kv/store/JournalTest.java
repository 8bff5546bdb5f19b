package org.fawnpack.kv.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link Journal}: datastores that share one journal are durable by its forces alone. Each test
 * crashes them the hard way — a log closed without flushing its append buffer (what a killed
 * process loses), then every byte a file had not forced truncated or zeroed at random (what a
 * power cut may lose) — and checks the reopened files against a model of every acknowledged
 * write.
 */
class JournalTest {

  private static final int STORES = 3;
  private static final int KEYS = 300;

  @TempDir
  Path dir;

  /** No forces of the files but the test's own: every byte past them is fair game for a cut. */
  private DatastoreConfig storeConfig(Journal journal) {
    return DatastoreConfig.builder().expectedKeys(1024).sync(SyncPolicy.NONE)
        .writebackBytes(0).writeBufferBytes(64 << 10).journal(journal).build();
  }

  private Path storePath(int i) {
    return dir.resolve("store-" + i + ".fds");
  }

  private static byte[] key(int k) {
    return ("key-" + k).getBytes(StandardCharsets.UTF_8);
  }

  /** A run of writes over the stores, every one acknowledged, with a model of the result. */
  private static final class Run {
    final Datastore[] stores;
    final List<Map<Integer, byte[]>> model = new ArrayList<>();
    /** Per store: bytes known forced (by the test's own syncs), the floor of a cut. */
    final long[] forced;

    final Journal journal;

    Run(Journal journal, Datastore[] stores) {
      this.journal = journal;
      this.stores = stores;
      this.forced = new long[stores.length];
      for (int i = 0; i < stores.length; i++) {
        model.add(new HashMap<>());
        forced[i] = DataLog.HEADER_BYTES;
      }
    }

    void write(Random random, int ops) throws Exception {
      List<CompletableFuture<Void>> acks = new ArrayList<>();
      for (int op = 0; op < ops; op++) {
        int s = random.nextInt(stores.length);
        int k = random.nextInt(KEYS);
        long sequence;
        if (random.nextInt(6) == 0) {
          sequence = stores[s].tombstone(key(k));
          model.get(s).remove(k);
        } else {
          byte[] value = new byte[1 + random.nextInt(random.nextInt(8) == 0 ? 20_000 : 300)];
          random.nextBytes(value);
          sequence = stores[s].put(key(k), value);
          model.get(s).put(k, value);
        }
        acks.add(stores[s].whenDurable(sequence));
        if (random.nextInt(400) == 0) { // a file forced now and then: the cut stays above it
          stores[s].sync();
          forced[s] = stores[s].current().get().log().flushedBytes();
        }
      }
      CompletableFuture.allOf(acks.toArray(new CompletableFuture<?>[0])).get(30, TimeUnit.SECONDS);
    }

    /**
     * What a killed process leaves: each file without its unflushed append buffer. The journal
     * is closed first, only to stop its threads (a dead process has none; every write was
     * acknowledged, so it has nothing left to force): after that it deletes no segment, so a
     * file force that ends after the forced lengths are read here cannot make the journal drop
     * writes that the simulated cut then takes.
     */
    void kill() throws IOException {
      journal.close();
      for (int i = 0; i < stores.length; i++) {
        DataLog log = stores[i].current().get().log();
        forced[i] = Math.max(forced[i], log.forcedBytes()); // forces the journal asked for too
        log.close();
      }
    }
  }

  private Datastore[] openStores(Journal journal) throws IOException {
    Datastore[] stores = new Datastore[STORES];
    for (int i = 0; i < STORES; i++) {
      stores[i] = Datastore.open(storePath(i), storeConfig(journal));
    }
    return stores;
  }

  /** A journal and its stores, {@code ops} acknowledged writes, then a kill. */
  private Run writeThenKill(long seed, int ops) throws Exception {
    Journal journal = Journal.open(dir.resolve("journal"), storeConfig(null));
    Run run = new Run(journal, openStores(journal));
    run.write(new Random(seed), ops);
    run.kill();
    return run;
  }

  /** Every store reopened (no journal) holds exactly its model. */
  private void assertHolds(Run run) throws IOException {
    for (int i = 0; i < STORES; i++) {
      try (Datastore reopened = Datastore.open(storePath(i), storeConfig(null))) {
        for (int k = 0; k < KEYS; k++) {
          byte[] expected = run.model.get(i).get(k);
          byte[] actual = reopened.get(key(k));
          if (expected == null) {
            assertNull(actual, "store " + i + " key " + k + " was deleted");
          } else {
            assertArrayEquals(expected, actual, "store " + i + " key " + k);
          }
        }
        assertEquals(run.model.get(i).size(), reopened.size(), "store " + i + " live keys");
      }
    }
  }

  /**
   * Under the interval policy a journaled datastore gets no interval forces of its own file
   * (the journal makes its writes durable; the power-cut tests here run with no file forces at
   * all but the test's own); one without a journal does.
   */
  @Test
  void theIntervalPolicyForcesNoJournaledFile() throws Exception {
    DatastoreConfig interval = DatastoreConfig.builder().sync(SyncPolicy.INTERVAL).build();
    try (Journal journal = Journal.open(dir.resolve("journal"), interval)) {
      assertNull(SyncScheduler.intervalSyncs(interval.toBuilder().journal(journal).build(),
          null, null));
    }
    java.util.concurrent.ScheduledFuture<?> ticks = SyncScheduler.intervalSyncs(interval,
        null, null);
    assertTrue(ticks != null, "a file on its own is forced every interval");
    ticks.cancel(false);
  }

  @Test
  void aKilledProcessLosesNoAcknowledgedWrite() throws Exception {
    Run run = writeThenKill(1, 3_000);
    Journal.open(dir.resolve("journal"), storeConfig(null)).close();
    assertHolds(run);
  }

  @ParameterizedTest
  @ValueSource(longs = {11, 12, 13, 14, 15, 16})
  void aPowerCutLosesNoAcknowledgedWrite(long seed) throws Exception {
    powerCut(seed, Journal.DEFAULT_SEGMENT_BYTES);
  }

  /** Segments sealed and deleted as the files are forced, so the journal holds only the last. */
  @ParameterizedTest
  @ValueSource(longs = {17, 18, 19})
  void aPowerCutWithSmallSegmentsLosesNoAcknowledgedWrite(long seed) throws Exception {
    powerCut(seed, 16 << 10);
  }

  private void powerCut(long seed, long segmentBytes) throws Exception {
    Random random = new Random(seed);
    Journal journal = Journal.open(dir.resolve("journal"), storeConfig(null), segmentBytes);
    Run run = new Run(journal, openStores(journal));
    run.write(random, 2_000);
    run.kill();
    for (int i = 0; i < STORES; i++) {
      cutUnforced(storePath(i), run.forced[i], random);
    }
    Journal.open(dir.resolve("journal"), storeConfig(null)).close();
    assertHolds(run);
  }

  /**
   * What a power cut may do to the bytes a file never forced: drop its end at any point, and
   * lose whole pages before that in any order (zeros where they were).
   */
  private static void cutUnforced(Path file, long forced, Random random) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      long size = channel.size();
      long end = forced + (long) (random.nextDouble() * (size - forced + 1));
      channel.truncate(end);
      long firstPage = (forced + 4095) / 4096;
      for (long page = firstPage; page * 4096 < end; page++) {
        if (random.nextInt(3) == 0) {
          long at = page * 4096;
          FileIo.writeFully(channel, ByteBuffer.allocate((int) Math.min(4096, end - at)), at);
        }
      }
    }
  }

  @Test
  void writesSurviveACompactionAndACutAfterIt() throws Exception {
    Random random = new Random(21);
    Journal journal = Journal.open(dir.resolve("journal"), storeConfig(null));
    Run run = new Run(journal, openStores(journal));
    run.write(random, 1_500);
    for (int i = 0; i < STORES; i++) {
      run.stores[i].compact(); // a new log, forced: the journal's older records are not needed
      run.forced[i] = run.stores[i].current().get().log().flushedBytes();
    }
    run.write(random, 1_500);
    run.kill();
    for (int i = 0; i < STORES; i++) {
      cutUnforced(storePath(i), run.forced[i], random);
    }
    Journal.open(dir.resolve("journal"), storeConfig(null)).close();
    assertHolds(run);
  }

  @Test
  void sealedSegmentsGoOnceTheirFilesAreForced() throws Exception {
    Journal journal = Journal.open(dir.resolve("journal"), storeConfig(null), 8 << 10);
    Run run = new Run(journal, openStores(journal));
    run.write(new Random(31), 3_000);
    // Sealing asked each writer to force its file; the deletions follow those forces.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (journal.sealedSegments() > 0 && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertEquals(0, journal.sealedSegments(), "sealed segments left");
    assertTrue(segments().size() <= 2, "segment files on disk: " + segments());
    run.kill(); // and what the remaining segment holds is still replayed
    Journal.open(dir.resolve("journal"), storeConfig(null)).close();
    assertHolds(run);
    assertEquals(List.of(), segments(), "replay deletes the segments it replayed");
  }

  @Test
  void closedStoresNeedNothingOfTheJournal() throws Exception {
    Journal journal = Journal.open(dir.resolve("journal"), storeConfig(null), 8 << 10);
    Run run = new Run(journal, openStores(journal));
    run.write(new Random(41), 2_000);
    for (Datastore s : run.stores) {
      s.close();
    }
    journal.close();
    assertEquals(0, journal.sealedSegments(), "sealed segments left after every writer closed");
    Files.delete(storePath(0)); // a file deleted after its close: its records are not needed
    run.model.get(0).clear();
    Journal.open(dir.resolve("journal"), storeConfig(null)).close();
    assertHolds(run);
  }

  @Test
  void aTornLastSegmentIsIgnored() throws Exception {
    Run run = writeThenKill(51, 500);
    List<Path> segments = segments();
    // A force cut short: a record's length and the start of its body, no more.
    Files.write(segments.get(segments.size() - 1), new byte[] {0, 0, 0, 42, 1, 2, 3},
        StandardOpenOption.APPEND);
    Journal.open(dir.resolve("journal"), storeConfig(null)).close();
    assertHolds(run);
  }

  @Test
  void damageInAnEarlierSegmentIsRefusedByName() throws Exception {
    Run run = writeThenKill(52, 500);
    Path damaged = segments().get(0);
    // A later segment behind it, so that it is one a force finished before the next began.
    long number = Long.parseUnsignedLong(damaged.getFileName().toString().substring(8, 24), 16);
    Path later = damaged.resolveSibling(JournalReplay.segmentName(number + 1));
    Files.write(later, JournalFormat.header(number + 1).array());
    byte[] bytes = Files.readAllBytes(damaged);
    bytes[JournalFormat.HEADER_BYTES + 12] ^= 0x55; // inside the first record's body
    Files.write(damaged, bytes);
    CorruptLogException e = assertThrows(CorruptLogException.class,
        () -> Journal.open(dir.resolve("journal"), storeConfig(null)));
    assertTrue(e.getMessage().contains(damaged.toString()), e.getMessage());
  }

  @Test
  void aFileThatLostForcedBytesStaysAPrefixOfItsHistory() throws Exception {
    Journal journal = Journal.open(dir.resolve("journal"), storeConfig(null));
    Datastore store = Datastore.open(storePath(0), storeConfig(journal));
    byte[] value = new byte[100];
    for (int k = 0; k < 200; k++) {
      store.put(key(k), value);
    }
    store.sync();
    long forced = store.current().get().log().flushedBytes();
    // The write after the force names the file again: forced through `forced` bytes.
    store.whenDurable(store.put(key(200), value)).get(10, TimeUnit.SECONDS);
    journal.close();
    store.current().get().log().close(); // key 200 only in the journal now
    try (FileChannel channel = FileChannel.open(storePath(0), StandardOpenOption.WRITE)) {
      channel.truncate(forced / 2); // the device lost bytes it had said were forced
    }
    Journal.open(dir.resolve("journal"), storeConfig(null)).close();
    try (Datastore reopened = Datastore.open(storePath(0), storeConfig(null))) {
      assertArrayEquals(value, reopened.get(key(0)));
      for (int k = 150; k <= 200; k++) {
        assertNull(reopened.get(key(k)), "key " + k + ": applied after a hole in the history");
      }
    }
  }

  @Test
  void aWriteAfterTheJournalClosedIsRefused() throws Exception {
    Journal journal = Journal.open(dir.resolve("journal"), storeConfig(null));
    try (Datastore store = Datastore.open(storePath(0), storeConfig(journal))) {
      store.whenDurable(store.put(key(1), new byte[] {1})).get(10, TimeUnit.SECONDS);
      journal.close();
      long last = store.lastSequence();
      IOException e = assertThrows(IOException.class, () -> store.put(key(2), new byte[] {2}));
      assertTrue(e.getMessage().contains("closed"), e.getMessage());
      assertEquals(last, store.lastSequence(), "a refused write takes no sequence number");
    }
  }

  private List<Path> segments() throws IOException {
    try (Stream<Path> files = Files.list(dir.resolve("journal"))) {
      return files.filter(p -> p.getFileName().toString().endsWith(".fjl")).sorted().toList();
    }
  }
}

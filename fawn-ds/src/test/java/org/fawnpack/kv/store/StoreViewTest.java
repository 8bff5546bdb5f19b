package org.fawnpack.kv.store;

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
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@link StoreView} against a model of the store (a map copied when the view is taken): it
 * sees exactly the model's entries of that instant whatever is written after, in sequence
 * order, and a reader that goes on after a sequence number in a later view repeats nothing and
 * loses nothing.
 */
class StoreViewTest {
  private static final DatastoreConfig CONFIG = DatastoreConfig.builder().expectedKeys(256)
      .build();

  @TempDir
  Path dir;

  private final Random random = new Random(20261126);
  private final List<String> keys = new ArrayList<>();

  /** Keys as FAWN-KV stores them: a random 8-byte ring position, then a name. */
  StoreViewTest() {
    for (int i = 0; i < 400; i++) {
      keys.add(i + "");
    }
  }

  private static byte[] engineKey(String name) {
    return ByteBuffer.allocate(8 + name.length()).putLong(name.hashCode() * 0x9E3779B97F4A7C15L)
        .put(name.getBytes(StandardCharsets.UTF_8)).array();
  }

  /** {@code count} random puts, overwrites and deletes, applied to the store and the model. */
  private void write(Datastore ds, Map<String, String> model, int count) throws IOException {
    for (int i = 0; i < count; i++) {
      String key = keys.get(random.nextInt(keys.size()));
      if (random.nextInt(5) == 0) {
        ds.delete(engineKey(key));
        model.remove(key);
      } else {
        String value = key + "@" + i + "x".repeat(random.nextInt(300));
        ds.put(engineKey(key), value.getBytes(StandardCharsets.UTF_8));
        model.put(key, value);
      }
    }
  }

  /** The next {@code count} entries as name to value. */
  private static Map<String, String> readSome(StoreView.Entries entries, int count)
      throws IOException {
    Map<String, String> read = new HashMap<>();
    for (int i = 0; i < count; i++) {
      StoreView.Entry e = entries.next();
      read.put(new String(e.key(), 8, e.key().length - 8, StandardCharsets.UTF_8),
          new String(e.value(), StandardCharsets.UTF_8));
    }
    return read;
  }

  /** Reads the rest of {@code entries} as name to value, checking order and uniqueness. */
  private static Map<String, String> readAll(StoreView.Entries entries) throws IOException {
    Map<String, String> read = new HashMap<>();
    long last = 0;
    for (StoreView.Entry e = entries.next(); e != null; e = entries.next()) {
      assertTrue(e.sequence() > last, "entries come in sequence order");
      last = e.sequence();
      String name = new String(e.key(), 8, e.key().length - 8, StandardCharsets.UTF_8);
      assertNull(read.put(name, new String(e.value(), StandardCharsets.UTF_8)),
          "key " + name + " came twice");
    }
    return read;
  }

  @Test
  void view_seesExactlyTheEntriesOfItsInstant_whateverIsWrittenAfter() throws IOException {
    try (Datastore ds = Datastore.open(dir.resolve("a.fds"), CONFIG)) {
      Map<String, String> model = new HashMap<>();
      write(ds, model, 3_000);
      StoreView view = ds.readView();
      long sequenceAtView = ds.lastSequence();
      Map<String, String> atView = Map.copyOf(model);
      write(ds, model, 3_000); // overwrites and deletes of keys the view still sees

      assertEquals(atView, readAll(view.entriesAfter(0, KeyRange.wholeRing())));
      assertEquals(sequenceAtView, view.lastSequence());
      assertEquals(model, readAll(ds.readView().entriesAfter(0, KeyRange.wholeRing())));
    }
  }

  /** Reads the rest in place ({@code advance}), as a scan's page is written. */
  private static Map<String, String> readAllInPlace(StoreView.Entries entries)
      throws IOException {
    Map<String, String> read = new HashMap<>();
    long last = 0;
    while (entries.advance()) {
      assertTrue(entries.sequence() > last, "entries come in sequence order");
      last = entries.sequence();
      String name = string(entries.buffer(), entries.keyIndex() + 8, entries.keyLength() - 8);
      assertNull(read.put(name, string(entries.buffer(), entries.valueIndex(),
          entries.valueLength())), "key " + name + " came twice");
    }
    return read;
  }

  private static String string(java.nio.ByteBuffer b, int index, int length) {
    byte[] bytes = new byte[length];
    b.get(index, bytes);
    return new String(bytes, StandardCharsets.UTF_8);
  }

  @Test
  void inPlace_sameEntriesAsCopiedOut_wholeRingAndAnArc_asOfACut() throws IOException {
    try (Datastore ds = Datastore.open(dir.resolve("a.fds"), CONFIG)) {
      Map<String, String> model = new HashMap<>();
      write(ds, model, 1_500);
      long cut = ds.lastSequence();
      Map<String, String> atCut = new HashMap<>(model);
      write(ds, model, 300); // written after the cut: the read as of it must not see them
      KeyRange arc = new KeyRange(Long.MIN_VALUE / 2, Long.MAX_VALUE / 3);
      StoreView view = ds.readView();
      assertEquals(model, readAllInPlace(view.entriesAfter(0, KeyRange.wholeRing())));
      assertEquals(readAll(view.entriesAfter(0, arc)), readAllInPlace(view.entriesAfter(0,
          arc)));
      assertEquals(atCut, readAllInPlace(view.entriesAt(cut, 0, KeyRange.wholeRing())));
    }
  }

  @Test
  void rangeOfTheView_onlyKeysWhosePositionIsInIt() throws IOException {
    try (Datastore ds = Datastore.open(dir.resolve("a.fds"), CONFIG)) {
      Map<String, String> model = new HashMap<>();
      write(ds, model, 2_000);
      // An arc that wraps past zero: positions above 2^63 + 2^62 or below 2^61.
      KeyRange arc = new KeyRange(0xC000_0000_0000_0000L, 0x2000_0000_0000_0000L);
      Map<String, String> expected = new HashMap<>();
      model.forEach((k, v) -> {
        if (arc.contains(RingPositions.of(engineKey(k)))) {
          expected.put(k, v);
        }
      });
      assertTrue(expected.size() > 10 && expected.size() < model.size() - 10);
      assertEquals(expected, readAll(ds.readView().entriesAfter(0, arc)));
    }
  }

  @Test
  void goingOnAfterASequenceNumberInALaterView_losesAndRepeatsNothing() throws IOException {
    try (Datastore ds = Datastore.open(dir.resolve("a.fds"), CONFIG)) {
      Map<String, String> model = new HashMap<>();
      write(ds, model, 3_000);
      StoreView.Entries first = ds.readView().entriesAfter(0, KeyRange.wholeRing());
      Map<String, String> read = readSome(first, model.size() / 3);
      Map<String, String> rest = readAll(ds.readView().entriesAfter(first.lastExamined(),
          KeyRange.wholeRing()));
      Set<String> both = new HashSet<>(read.keySet());
      both.retainAll(rest.keySet());
      assertEquals(Set.of(), both, "entries read twice");
      rest.putAll(read);
      assertEquals(model, rest);
    }
  }

  @Test
  void writesBetweenViews_eachKeyStillReadOnceUnlessWrittenMeanwhile() throws IOException {
    try (Datastore ds = Datastore.open(dir.resolve("a.fds"), CONFIG)) {
      Map<String, String> model = new HashMap<>();
      write(ds, model, 3_000);
      Map<String, String> before = Map.copyOf(model);
      StoreView.Entries first = ds.readView().entriesAfter(0, KeyRange.wholeRing());
      List<String> read = new ArrayList<>();
      Map<String, Set<String>> valuesRead = new HashMap<>();
      for (int i = 0; i < before.size() / 2; i++) {
        StoreView.Entry e = first.next();
        String name = new String(e.key(), 8, e.key().length - 8, StandardCharsets.UTF_8);
        read.add(name);
        valuesRead.computeIfAbsent(name, k -> new HashSet<>())
            .add(new String(e.value(), StandardCharsets.UTF_8));
      }
      Set<String> written = new HashSet<>();
      for (int i = 0; i < 200; i++) {
        String key = keys.get(random.nextInt(keys.size()));
        written.add(key);
        String value = "late " + i;
        ds.put(engineKey(key), value.getBytes(StandardCharsets.UTF_8));
        model.put(key, value);
      }
      StoreView.Entries second = ds.readView().entriesAfter(first.lastExamined(),
          KeyRange.wholeRing());
      for (StoreView.Entry e = second.next(); e != null; e = second.next()) {
        String name = new String(e.key(), 8, e.key().length - 8, StandardCharsets.UTF_8);
        read.add(name);
        valuesRead.computeIfAbsent(name, k -> new HashSet<>())
            .add(new String(e.value(), StandardCharsets.UTF_8));
      }
      for (String key : keys) {
        long times = read.stream().filter(key::equals).count();
        boolean present = before.containsKey(key) || model.containsKey(key);
        if (!written.contains(key)) {
          assertEquals(present ? 1 : 0, times, "times " + key + " was read");
        } else {
          assertTrue(times >= 1 && times <= 2, key + " read " + times + " times");
          for (String v : valuesRead.get(key)) {
            assertTrue(v.equals(before.get(key)) || v.equals(model.get(key)),
                key + ": " + v + " was neither its value before nor after");
          }
        }
      }
    }
  }

  @Test
  void asOfACut_exactlyTheEntriesOfThatInstant_onAReplicaWithFewerLaterWrites()
      throws IOException {
    try (Datastore ds = Datastore.open(dir.resolve("a.fds"), CONFIG);
        Datastore replica = Datastore.open(dir.resolve("b.fds"), CONFIG)) {
      Map<String, String> model = new HashMap<>();
      write(ds, model, 3_000);
      long cut = ds.lastSequence();
      Map<String, String> atCut = Map.copyOf(model);
      write(ds, model, 1_500); // puts, overwrites and deletes after the cut
      long replicaEnd = cut + (ds.lastSequence() - cut) / 3;
      // The replica took every write up to the cut and a third of the later ones, under the
      // same numbers (as a chain's later member does).
      ds.recordsFrom(1, (sequence, key, value) -> {
        if (sequence <= replicaEnd) {
          if (value == null) {
            replica.deleteAt(key, sequence);
          } else {
            replica.putAt(key, value, sequence);
          }
        }
      });

      assertEquals(atCut, readAll(ds.readView().entriesAt(cut, 0, KeyRange.wholeRing())));
      assertEquals(atCut, readAll(replica.readView().entriesAt(cut, 0, KeyRange.wholeRing())));

      // Half from the first, the rest from the replica after the same number.
      StoreView.Entries first = ds.readView().entriesAt(cut, 0, KeyRange.wholeRing());
      Map<String, String> read = readSome(first, atCut.size() / 2);
      write(ds, model, 500);
      Map<String, String> rest = readAll(replica.readView().entriesAt(cut, first.lastExamined(),
          KeyRange.wholeRing()));
      Set<String> both = new HashSet<>(read.keySet());
      both.retainAll(rest.keySet());
      assertEquals(Set.of(), both, "entries read twice");
      rest.putAll(read);
      assertEquals(atCut, rest);

      long beyond = replica.lastSequence() + 1;
      assertThrows(IllegalArgumentException.class,
          () -> replica.readView().entriesAt(beyond, 0, KeyRange.wholeRing()));
    }
  }

  /**
   * Replicas compact on their own: a reader's cursor is a sequence number, not a log offset, so
   * it goes on from a compacted replica to one that is not, and back, losing and repeating
   * nothing (issue 16: "test with only one replica compacted").
   */
  @Test
  void cursorMovesBetweenACompactedReplicaAndAnother_losesAndRepeatsNothing()
      throws IOException {
    try (Datastore ds = Datastore.open(dir.resolve("a.fds"), CONFIG);
        Datastore compacted = Datastore.open(dir.resolve("b.fds"), CONFIG)) {
      Map<String, String> model = new HashMap<>();
      write(ds, model, 4_000); // many overwrites and deletes: compaction drops their records
      ds.recordsFrom(1, (sequence, key, value) -> {
        if (value == null) {
          compacted.deleteAt(key, sequence);
        } else {
          compacted.putAt(key, value, sequence);
        }
      });
      CompactionResult result = compacted.compact();
      assertTrue(result.bytesAfter() < result.bytesBefore() / 2, "compaction dropped records: "
          + result);
      for (boolean compactedFirst : new boolean[] {true, false}) {
        Datastore from = compactedFirst ? compacted : ds;
        Datastore to = compactedFirst ? ds : compacted;
        StoreView.Entries first = from.readView().entriesAfter(0, KeyRange.wholeRing());
        Map<String, String> read = readSome(first, model.size() / 3);
        Map<String, String> rest = readAll(to.readView().entriesAfter(first.lastExamined(),
            KeyRange.wholeRing()));
        Set<String> both = new HashSet<>(read.keySet());
        both.retainAll(rest.keySet());
        assertEquals(Set.of(), both, "entries read twice, compacted first: " + compactedFirst);
        rest.putAll(read);
        assertEquals(model, rest, "compacted first: " + compactedFirst);
      }
    }
  }

  @Test
  void viewOfAClosedDatastore_failsItsNextRead() throws IOException {
    Datastore ds = Datastore.open(dir.resolve("a.fds"), CONFIG);
    write(ds, new HashMap<>(), 100);
    StoreView view = ds.readView();
    ds.close();
    assertThrows(IOException.class, () -> view.entriesAfter(0, KeyRange.wholeRing()).next());
  }

  @Test
  void emptyStore_viewHasNothing() throws IOException {
    try (Datastore ds = Datastore.open(dir.resolve("a.fds"), CONFIG)) {
      StoreView.Entries entries = ds.readView().entriesAfter(0, KeyRange.wholeRing());
      assertNull(entries.next());
      assertEquals(0, entries.lastExamined());
    }
  }
}

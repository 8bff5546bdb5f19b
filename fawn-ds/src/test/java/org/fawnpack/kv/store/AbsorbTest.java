package org.fawnpack.kv.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link RangeMoves#absorb}, how a removal merges two arcs on every replica, against a model
 * that knows each live key's value and the number of the write that stored it: the merged
 * store holds both models' entries, the absorbed ones numbered after the target's writes, the
 * same on a replica whose copy of the absorbed piece was compacted and one whose copy was not;
 * a reader that pages by sequence number loses and repeats nothing; the numbering goes on
 * after both; older cuts are refused; a reopen and a compaction keep it all.
 */
class AbsorbTest {
  private static final DatastoreConfig CONFIG = DatastoreConfig.builder().expectedKeys(64)
      .build();

  @TempDir
  Path dir;

  /** A live key's value and the number of the write that stored it. */
  private record Versioned(long sequence, String value) {}

  /** Random puts, overwrites and deletes of keys named {@code prefix-i}; returns the model. */
  private static TreeMap<String, Versioned> fill(Datastore ds, String prefix, long seed,
      int writes) throws IOException {
    Random random = new Random(seed);
    TreeMap<String, Versioned> live = new TreeMap<>();
    for (int i = 0; i < writes; i++) {
      String key = prefix + "-" + random.nextInt(writes / 3 + 1);
      if (random.nextInt(6) == 0) {
        ds.tombstone(bytes(key));
        live.remove(key);
      } else {
        String value = "v" + i + "-" + "x".repeat(random.nextInt(40));
        live.put(key, new Versioned(ds.put(bytes(key), bytes(value)), value));
      }
    }
    return live;
  }

  /** The entries a reader gets paging {@code pageSize} at a time, each page a fresh view. */
  private static TreeMap<String, Versioned> readInPages(Datastore ds, int pageSize)
      throws IOException {
    TreeMap<String, Versioned> seen = new TreeMap<>();
    long after = 0;
    while (true) {
      StoreView.Entries entries = ds.readView().entriesAfter(after, KeyRange.wholeRing());
      int n = 0;
      StoreView.Entry e;
      while (n < pageSize && (e = entries.next()) != null) {
        String key = new String(e.key(), StandardCharsets.UTF_8);
        Versioned before = seen.put(key, new Versioned(e.sequence(),
            new String(e.value(), StandardCharsets.UTF_8)));
        assertEquals(null, before, "a paging reader was given " + key + " twice");
        n++;
      }
      if (n == 0) {
        return seen;
      }
      after = entries.lastExamined();
    }
  }

  @Test
  void absorb_numbersTheOtherAfterItself_alikeWhetherOrNotItWasCompacted() throws IOException {
    List<TreeMap<String, Versioned>> results = new ArrayList<>();
    long expectedLast = -1;
    TreeMap<String, Versioned> expected = null;
    for (boolean compactFirst : new boolean[] {false, true}) {
      String name = compactFirst ? "compacted" : "plain";
      try (Datastore target = Datastore.open(dir.resolve(name + "-q.fds"), CONFIG);
          Datastore other = Datastore.open(dir.resolve(name + "-p.fds"), CONFIG)) {
        TreeMap<String, Versioned> targetModel = fill(target, "q", 7, 3_000);
        TreeMap<String, Versioned> otherModel = fill(other, "p", 11, 2_000);
        long targetLast = target.lastSequence();
        long otherLast = other.lastSequence();
        if (compactFirst) {
          other.compactThrough(otherLast, CompactionThrottle.NONE);
        }
        RangeMoves.absorb(target, other);

        expected = new TreeMap<>(targetModel);
        // The oracle's numbering: the absorbed write's own number after the target's last.
        for (var e : otherModel.entrySet()) {
          expected.put(e.getKey(), new Versioned(e.getValue().sequence() + targetLast,
              e.getValue().value()));
        }
        expectedLast = targetLast + otherLast;
        assertEquals(expectedLast, target.lastSequence(), name + ": the numbering goes on"
            + " after both pieces");
        assertEquals(expected, readInPages(target, 1_000_000), name + ": one pass");
        assertEquals(expected, readInPages(target, 7), name + ": paged by sequence number");
        assertEquals(expectedLast, target.historyFrom(), name);
        long older = targetLast;
        assertThrows(IllegalArgumentException.class,
            () -> target.readView().entriesAt(older, 0, KeyRange.wholeRing()),
            "a cut below the absorption: the absorbed piece's old versions are gone");
        results.add(readInPages(target, 1_000_000));
      }
    }
    assertEquals(results.get(0), results.get(1), "replicas number alike");

    // Reopened: the same entries; it goes on after both, and a compaction accepts its log.
    try (Datastore reopened = Datastore.open(dir.resolve("compacted-q.fds"), CONFIG)) {
      assertEquals(expected, readInPages(reopened, 13));
      assertEquals(expectedLast, reopened.lastSequence());
      assertTrue(reopened.putAt(bytes("p-new"), bytes("after"), expectedLast + 1));
      reopened.compactThrough(expectedLast + 1, CompactionThrottle.NONE);
      expected.put("p-new", new Versioned(expectedLast + 1, "after"));
      assertEquals(expected, readInPages(reopened, 5));
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}

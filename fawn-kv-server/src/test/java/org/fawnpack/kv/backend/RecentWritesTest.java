package org.fawnpack.kv.backend;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.fawnpack.kv.wire.WriteId;
import org.junit.jupiter.api.Test;

/**
 * The recent-writes table against a model: an insertion-ordered map that drops its eldest
 * entry above the capacity (what the table was before it moved into primitive arrays). Ids
 * come from a small pool, so retries of known ids, evictions and the index's backward shifts
 * all happen many times; ids crafted to share a hash slot are not needed, since a pool this
 * size on a small index collides on its own.
 */
class RecentWritesTest {

  /** The model: what a retry finds, in the order entries came. */
  private static final class Model {
    final int capacity;
    final LinkedHashMap<WriteId, RecentWrites.Applied> map;

    Model(int capacity) {
      this.capacity = capacity;
      this.map = new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<WriteId, RecentWrites.Applied> e) {
          return size() > Model.this.capacity;
        }
      };
    }

    byte[] encode(boolean coversAll) {
      ByteBuffer out = ByteBuffer.allocate(5 + map.size() * 25);
      out.put((byte) (coversAll ? 1 : 0)).putInt(map.size());
      map.forEach((id, how) -> out.putLong(id.writer()).putLong(id.request())
          .putLong(how.sequence()).put((byte) (how.present() ? 1 : 0)));
      return out.array();
    }
  }

  @Test
  void matchesTheModelThroughGrowthAndEviction() {
    for (int capacity : new int[] {1, 2, 8, 64, 256, 4096}) {
      Random random = new Random(capacity * 31L + 7);
      RecentWrites table = new RecentWrites(capacity);
      Model model = new Model(capacity);
      List<WriteId> pool = new ArrayList<>();
      for (int i = 0; i < capacity * 3 + 8; i++) {
        pool.add(new WriteId(random.nextInt(5) + 1, random.nextLong()));
      }
      long sequence = 0;
      for (int step = 0; step < capacity * 40 + 200; step++) {
        WriteId id = pool.get(random.nextInt(pool.size()));
        boolean present = random.nextBoolean();
        sequence++;
        table.record(id, sequence, present);
        model.map.putIfAbsent(id, new RecentWrites.Applied(sequence, present));
        assertEquals(model.map.size(), table.size(), "size at step " + step);
        WriteId probe = pool.get(random.nextInt(pool.size()));
        assertEquals(model.map.get(probe), table.find(probe), "find " + probe + " at " + step);
      }
      for (WriteId id : pool) {
        assertEquals(model.map.get(id), table.find(id), "capacity " + capacity + ": " + id);
      }
      assertArrayEquals(model.encode(true), table.encode(true), "capacity " + capacity);
    }
  }

  @Test
  void aWriteWithNoIdIsNeitherKeptNorFound() {
    RecentWrites table = new RecentWrites(8);
    table.record(WriteId.NONE, 5, true);
    assertEquals(0, table.size());
    assertNull(table.find(WriteId.NONE));
  }

  @Test
  void theFullDefaultTableKeepsItsLastCapacityWrites() {
    RecentWrites table = new RecentWrites();
    int writes = RecentWrites.CAPACITY + 1_000;
    for (int i = 1; i <= writes; i++) {
      table.record(new WriteId(42, i), i * 2L, i % 3 == 0);
    }
    assertEquals(RecentWrites.CAPACITY, table.size());
    for (int i = 1; i <= writes; i++) {
      RecentWrites.Applied found = table.find(new WriteId(42, i));
      if (i <= 1_000) {
        assertNull(found, "write " + i + " is among the dropped oldest");
      } else {
        assertEquals(new RecentWrites.Applied(i * 2L, i % 3 == 0), found, "write " + i);
      }
    }
  }

  @Test
  void aCopyTakesTheSourceTableInItsOrder() {
    Random random = new Random(11);
    RecentWrites source = new RecentWrites(64);
    Model model = new Model(64);
    for (int i = 1; i <= 150; i++) {
      WriteId id = new WriteId(random.nextInt(3) + 1, random.nextInt(80));
      source.record(id, i, i % 2 == 0);
      model.map.putIfAbsent(id, new RecentWrites.Applied(i, i % 2 == 0));
    }
    byte[] sent = source.encode(false);
    RecentWrites copy = new RecentWrites(64);
    assertEquals(false, copy.load(sent));
    assertArrayEquals(model.encode(false), copy.encode(false));
    assertTrue(new RecentWrites(64).load(source.encode(true)));
  }

  @Test
  void aTableLargerThanTheCapacityOrCutShortIsRefusedByName() {
    RecentWrites big = new RecentWrites(16);
    for (int i = 1; i <= 16; i++) {
      big.record(new WriteId(1, i), i, false);
    }
    byte[] sixteen = big.encode(true);
    IllegalArgumentException tooMany = assertThrows(IllegalArgumentException.class,
        () -> new RecentWrites(8).load(sixteen));
    assertTrue(tooMany.getMessage().contains("claims 16 entries"), tooMany.getMessage());
    byte[] cut = java.util.Arrays.copyOf(sixteen, 3);
    IllegalArgumentException shortOne = assertThrows(IllegalArgumentException.class,
        () -> new RecentWrites(16).load(cut));
    assertTrue(shortOne.getMessage().contains("cut short at 3 bytes"), shortOne.getMessage());
  }
}

package org.fawnpack.jobs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

class RangeSplitTest {

  @Test
  void cut_sizesDifferByAtMostOne_largerFirst_coverEverything() {
    List<RangeSplit> ranges = RangeSplit.cut("rows", 1, 14, 4, 100);
    long[] firsts = ranges.stream().mapToLong(RangeSplit::first).toArray();
    long[] counts = ranges.stream().mapToLong(RangeSplit::count).toArray();
    assertArrayEquals(new long[] {1, 5, 9, 12}, firsts);
    assertArrayEquals(new long[] {4, 4, 3, 3}, counts);
    assertEquals(400, ranges.get(0).getLength());
    assertEquals(0, ranges.get(0).getLocations().length);
  }

  @Test
  void cut_fewerItemsThanParts_oneRangePerItem() {
    List<RangeSplit> ranges = RangeSplit.cut("values", 0, 3, 8, 0);
    assertEquals(3, ranges.size());
    assertTrue(ranges.stream().allMatch(r -> r.count() == 1));
  }

  @Test
  void writeThenRead_sameRange() throws IOException {
    RangeSplit read = new RangeSplit();
    read.readFields(new DataInputStream(new ByteArrayInputStream(
        bytes(new RangeSplit("Halton points", 7, 9, 0)))));
    assertEquals(7, read.first());
    assertEquals(9, read.count());
    assertEquals("Halton points 7 .. 15", read.toString());
  }

  /** The layout version is the first byte; another one is refused, naming both. */
  @Test
  void read_otherLayoutVersion_refusedNamingIt() {
    byte[] wire = bytes(new RangeSplit("rows", 0, 1, 100));
    assertEquals(RangeSplit.VERSION, wire[0]);
    wire[0] = 9;
    IOException e = assertThrows(IOException.class, () -> new RangeSplit().readFields(
        new DataInputStream(new ByteArrayInputStream(wire))));
    assertTrue(e.getMessage().contains("version 9") && e.getMessage().contains("version 1"),
        e.getMessage());
  }

  private static byte[] bytes(RangeSplit split) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      split.write(new DataOutputStream(out));
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    return out.toByteArray();
  }
}

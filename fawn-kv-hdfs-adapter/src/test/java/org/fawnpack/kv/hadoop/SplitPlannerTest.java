package org.fawnpack.kv.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.ring.RingHash;
import org.fawnpack.kv.scan.Arcs;
import org.fawnpack.kv.store.KeyRange;
import org.junit.jupiter.api.Test;

/**
 * Splits planned from real rings with random arc sizes, checked against the ring itself: the
 * splits' ranges cover every position exactly once, each lies inside one arc, a merged split
 * holds arcs of one tail host (listed first), no split is larger than the size unless it is
 * one arc's cut piece, none is empty, the cap holds, and a split survives its Writable form.
 */
class SplitPlannerTest {
  private final Random random = new Random(1126);

  private Ring ring(int members, int vnodes) {
    Ring ring = Ring.empty(new RingHash("split planner test ring".getBytes(
        StandardCharsets.UTF_8)), vnodes, 3);
    for (int m = 0; m < members; m++) {
      ring = ring.withMember(new Member("b" + m, "10.0.0." + (m + 1), 7000));
    }
    return ring;
  }

  private List<ArcSize> sizes(Ring ring, long maxBytes) {
    List<ArcSize> arcs = new ArrayList<>();
    for (Chain c : ring.chains()) {
      List<String> hosts = new ArrayList<>();
      hosts.add(c.tail().host());
      c.members().stream().map(Member::host).filter(h -> !h.equals(c.tail().host()))
          .forEach(hosts::add);
      arcs.add(new ArcSize(c.range(), random.nextInt(10) == 0 ? 0
          : (long) (random.nextDouble() * maxBytes), hosts, random.nextInt(1_000_000)));
    }
    return arcs;
  }

  @Test
  void randomRings_splitsCoverTheRingOnce_insideArcs_mergedByTailHost() {
    for (int round = 0; round < 300; round++) {
      Ring ring = ring(1 + random.nextInt(8), 1 + random.nextInt(8));
      List<ArcSize> arcs = sizes(ring, 1L << (20 + random.nextInt(12)));
      long size = 1L << (20 + random.nextInt(10));
      int cap = 1 + random.nextInt(200);
      List<FawnKvSplit> splits = SplitPlanner.plan(arcs, size, cap);

      List<KeyRange> ranges = new ArrayList<>();
      splits.forEach(s -> ranges.addAll(s.ranges()));
      ranges.sort(Comparator.comparing(KeyRange::startExclusive, Long::compareUnsigned));
      double covered = 0;
      for (int i = 0; i < ranges.size(); i++) {
        KeyRange r = ranges.get(i);
        assertEquals(ranges.get((i + 1) % ranges.size()).startExclusive(), r.endInclusive(),
            "ranges follow each other round the ring: " + ranges);
        assertTrue(ring.chainFor(r.endInclusive()).range().covers(r), r + " inside one arc");
        covered += Arcs.length(r);
      }
      assertEquals(0x1p64, covered, 1e6, "the ranges add up to the ring");

      long tailHosts = arcs.stream().map(ArcSize::tailHost).distinct().count();
      assertTrue(splits.size() <= Math.max(cap, tailHosts),
          splits.size() + " splits, cap " + cap + ", " + tailHosts + " tail hosts");
      long total = arcs.stream().mapToLong(ArcSize::bytes).sum();
      long planned = splits.stream().mapToLong(FawnKvSplit::getLength).sum();
      long empty = arcs.stream().filter(a -> a.bytes() == 0).count();
      assertTrue(planned >= total && planned <= total + empty,
          planned + " bytes planned for " + total + " (an empty arc counts 1)");
      for (FawnKvSplit s : splits) {
        assertTrue(s.getLength() >= 1, "no split of length 0");
        for (int i = 0; i < s.ranges().size(); i++) {
          KeyRange r = s.ranges().get(i);
          long expected = arcs.stream().filter(a -> a.range().covers(r)).findFirst()
              .orElseThrow().tailSequence();
          assertEquals(expected, s.cut(i), "range " + r + " carries its arc's cut");
        }
        if (s.ranges().size() > 1) {
          String tail = tailHostOf(ring, s.ranges().get(0));
          for (KeyRange r : s.ranges()) {
            assertEquals(tail, tailHostOf(ring, r), "a merged split's arcs share a tail host");
          }
          assertEquals(tail, s.getLocations()[0]);
        } else {
          assertEquals(tailHostOf(ring, s.ranges().get(0)), s.getLocations()[0]);
        }
      }
    }
  }

  private static String tailHostOf(Ring ring, KeyRange range) {
    return ring.chainFor(range.endInclusive()).tail().host();
  }

  @Test
  void largeArc_cutIntoEqualPartsOfAtMostTheSize() {
    Ring ring = ring(3, 1);
    List<ArcSize> arcs = new ArrayList<>();
    for (Chain c : ring.chains()) {
      arcs.add(new ArcSize(c.range(), 10L << 20, List.of(c.tail().host())));
    }
    List<FawnKvSplit> splits = SplitPlanner.plan(arcs, 3L << 20, 1000);
    assertEquals(3 * 4, splits.size(), "each 10 MiB arc in four parts of 2.5 MiB");
    for (FawnKvSplit s : splits) {
      assertEquals((10L << 20) / 4, s.getLength());
      assertTrue(s.getLength() <= 3L << 20);
    }
  }

  @Test
  void smallArcs_mergedPerTailHost_andTheCapDoublesTheSize() {
    Ring ring = ring(4, 8);
    List<ArcSize> arcs = new ArrayList<>();
    for (Chain c : ring.chains()) {
      arcs.add(new ArcSize(c.range(), 1L << 20, List.of(c.tail().host())));
    }
    assertEquals(4, SplitPlanner.plan(arcs, 1L << 30, 1000).size(), "one split per tail host");
    assertEquals(32, SplitPlanner.plan(arcs, 1L << 20, 1000).size(), "one per arc");
    assertTrue(SplitPlanner.plan(arcs, 1L << 20, 10).size() <= 10);
    assertThrows(IllegalArgumentException.class, () -> SplitPlanner.plan(arcs, 0, 10));
  }

  @Test
  void split_throughItsWritableForm_isTheSame() throws IOException {
    FawnKvSplit split = new FawnKvSplit(List.of(new KeyRange(5, 9), new KeyRange(-3, 2)),
        new long[] {12, 0}, 77, List.of("a.example", "b.example"));
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    split.write(new DataOutputStream(bytes));
    FawnKvSplit back = new FawnKvSplit();
    back.readFields(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
    assertEquals(split.ranges(), back.ranges());
    assertEquals(12, back.cut(0));
    assertEquals(0, back.cut(1));
    assertEquals(77, back.getLength());
    assertTrue(Arrays.equals(split.getLocations(), back.getLocations()));
    assertEquals(1, new FawnKvSplit(List.of(KeyRange.wholeRing()), 0, List.of()).getLength(),
        "never a split of length 0");
  }
}

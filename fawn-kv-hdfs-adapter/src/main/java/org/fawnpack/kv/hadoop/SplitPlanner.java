package org.fawnpack.kv.hadoop;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.fawnpack.kv.store.KeyRange;

/**
 * Splits from arcs, in ring order: an arc over the split size is cut into equal parts of the
 * ring (keys' positions are a keyed hash, so bytes spread evenly over positions); smaller
 * arcs whose scans the same host serves are merged up to the split size, so a merged split
 * keeps its locality; when that makes more splits than the cap, the size doubles.
 */
final class SplitPlanner {
  private SplitPlanner() {}

  static List<FawnKvSplit> plan(List<ArcSize> arcs, long splitBytes, int maxSplits) {
    if (splitBytes < 1 || maxSplits < 1) {
      throw new IllegalArgumentException("split size " + splitBytes + ", at most " + maxSplits
          + " splits");
    }
    long size = splitBytes;
    while (true) {
      List<FawnKvSplit> splits = planWith(arcs, size);
      if (splits.size() <= maxSplits || size > Long.MAX_VALUE / 2) {
        return splits;
      }
      size *= 2;
    }
  }

  private static List<FawnKvSplit> planWith(List<ArcSize> arcs, long size) {
    List<FawnKvSplit> splits = new ArrayList<>();
    Map<String, List<ArcSize>> merging = new LinkedHashMap<>();
    for (ArcSize arc : arcs) {
      if (arc.bytes() > size) {
        splits.addAll(cut(arc, size));
        continue;
      }
      List<ArcSize> group = merging.get(arc.tailHost());
      if (group != null && bytesOf(group) + arc.bytes() > size) {
        splits.add(merged(group));
        group = null;
      }
      if (group == null) {
        group = new ArrayList<>();
        merging.put(arc.tailHost(), group);
      }
      group.add(arc);
    }
    merging.values().forEach(group -> splits.add(merged(group)));
    return splits;
  }

  private static long bytesOf(List<ArcSize> group) {
    return group.stream().mapToLong(ArcSize::bytes).sum();
  }

  /** {@code arc} in parts of at most {@code size} bytes, each an equal share of its positions. */
  private static List<FawnKvSplit> cut(ArcSize arc, long size) {
    long parts = (arc.bytes() + size - 1) / size;
    KeyRange range = arc.range();
    long length = range.endInclusive() - range.startExclusive(); // 0: the whole ring
    if (length != 0 && Long.compareUnsigned(length, parts) < 0) {
      parts = length; // no part of less than one position
    }
    long step = length == 0 ? Long.divideUnsigned(-1L, parts) : Long.divideUnsigned(length,
        parts);
    List<FawnKvSplit> pieces = new ArrayList<>();
    long start = range.startExclusive();
    for (long i = 0; i < parts; i++) {
      long end = i == parts - 1 ? range.endInclusive() : start + step;
      long share = arc.bytes() / parts + (i < arc.bytes() % parts ? 1 : 0); // adds up exactly
      pieces.add(new FawnKvSplit(List.of(new KeyRange(start, end)),
          new long[] {arc.tailSequence()}, share, arc.hosts()));
      start = end;
    }
    return pieces;
  }

  /** One split of arcs with the same tail host: that host first, then the others by count. */
  private static FawnKvSplit merged(List<ArcSize> group) {
    Map<String, Long> counts = group.stream().flatMap(a -> a.hosts().stream())
        .collect(Collectors.groupingBy(h -> h, LinkedHashMap::new, Collectors.counting()));
    String tail = group.get(0).tailHost();
    List<String> hosts = new ArrayList<>();
    if (!tail.isEmpty()) {
      hosts.add(tail);
    }
    counts.entrySet().stream().filter(e -> !e.getKey().equals(tail))
        .sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder()))
        .forEach(e -> hosts.add(e.getKey()));
    return new FawnKvSplit(group.stream().map(ArcSize::range).toList(),
        group.stream().mapToLong(ArcSize::tailSequence).toArray(), bytesOf(group), hosts);
  }
}

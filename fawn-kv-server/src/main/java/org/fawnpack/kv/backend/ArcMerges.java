package org.fawnpack.kv.backend;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.store.DatastoreConfig;
import org.fawnpack.kv.store.KeyRange;
import org.fawnpack.kv.store.RangeMoves;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Merges a back-end's arc files where a removal took away the virtual nodes between them: the
 * file of the arc that takes the others in (it ends where the merged arc does) absorbs theirs
 * in ring order ({@link RangeMoves#absorb}: one sequential pass each, numbered after its own
 * writes), and serves the merged arc. Every replica does the same with the same records (the
 * arcs were frozen until their writes settled), so all number the merged arc alike. A member
 * that does not hold every piece, or is not to serve the merged arc, closes the pieces it
 * holds and retires them; it copies the merged arc if its chain names it. A crash midway
 * leaves no clean-stop marker, so the back-end's files are not served again anyway.
 */
final class ArcMerges {
  private static final Logger LOG = LoggerFactory.getLogger(ArcMerges.class);

  private ArcMerges() {}

  /**
   * Applies the merges of {@code next} to the arcs in {@code arcs} (by end), under the
   * back-end's lock: merged and reopened where this member serves all of a merged arc,
   * else closed and handed to {@code retired}.
   */
  static void mergeAbsorbedArcs(String who, Path dir, Map<Long, ArcStore> arcs, Ring next,
      DatastoreConfig config, RetiredArcs retired) throws IOException {
    Map<Long, List<ArcStore>> byMergedEnd = new TreeMap<>();
    for (ArcStore arc : arcs.values()) {
      KeyRange range = arc.chain().range();
      Chain merged = next.chainFor(range.endInclusive());
      if (!merged.range().equals(range) && merged.range().covers(range)) {
        byMergedEnd.computeIfAbsent(merged.range().endInclusive(), k -> new ArrayList<>())
            .add(arc);
      }
    }
    for (Map.Entry<Long, List<ArcStore>> group : byMergedEnd.entrySet()) {
      Chain merged = next.chainFor(group.getKey());
      List<ArcStore> pieces = group.getValue();
      if (servesWhole(who, merged, pieces)) {
        absorb(who, dir, arcs, merged, pieces, next.epoch(), config);
      } else {
        for (ArcStore piece : pieces) {
          long end = piece.chain().range().endInclusive();
          piece.lock();
          try {
            arcs.remove(end);
            piece.close();
          } finally {
            piece.unlock();
          }
          retired.add(end);
        }
      }
    }
  }

  /**
   * True when {@code who} serves {@code merged} in the next ring and its pieces here are
   * served copies that tile it (the ring lets it serve only then; this checks its files).
   */
  private static boolean servesWhole(String who, Chain merged, List<ArcStore> pieces) {
    if (!RetiredArcs.servedBy(merged, who) || pieces.stream().anyMatch(ArcStore::isCopy)) {
      return false;
    }
    long covered = 0;
    for (ArcStore piece : pieces) {
      KeyRange r = piece.chain().range();
      covered += r.endInclusive() - r.startExclusive();
    }
    KeyRange whole = merged.range();
    return covered == whole.endInclusive() - whole.startExclusive()
        && pieces.stream().anyMatch(p -> p.chain().range().endInclusive()
            == whole.endInclusive());
  }

  private static void absorb(String who, Path dir, Map<Long, ArcStore> arcs, Chain merged,
      List<ArcStore> pieces, long epoch, DatastoreConfig config) throws IOException {
    long end = merged.range().endInclusive();
    long start = merged.range().startExclusive();
    List<ArcStore> inRingOrder = new ArrayList<>(pieces);
    // Ring order from the merged arc's start: the distance past it, unsigned (it may wrap).
    inRingOrder.sort(Comparator.comparing((ArcStore a) -> a.chain().range().endInclusive()
        - start - 1, Long::compareUnsigned));
    ArcStore target = inRingOrder.get(inRingOrder.size() - 1);
    target.lock();
    try {
      for (ArcStore piece : inRingOrder.subList(0, inRingOrder.size() - 1)) {
        piece.lock();
        try {
          RangeMoves.absorb(target.store(), piece.store());
          long pieceEnd = piece.chain().range().endInclusive();
          arcs.remove(pieceEnd);
          piece.close();
          ArcSplits.deleteLogAndIndex(ArcStore.fileOf(dir, pieceEnd));
        } finally {
          piece.unlock();
        }
      }
      arcs.remove(end);
      target.close();
    } finally {
      target.unlock();
    }
    arcs.put(end, ArcStore.open(dir, merged, epoch, config));
    LOG.info("backend {}: merged its files of {} arcs into {} where epoch {} removed the"
        + " virtual nodes between them", who, pieces.size(), merged.range(), epoch);
  }
}

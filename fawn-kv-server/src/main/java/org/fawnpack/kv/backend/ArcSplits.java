package org.fawnpack.kv.backend;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.store.Datastore;
import org.fawnpack.kv.store.DatastoreConfig;
import org.fawnpack.kv.store.KeyRange;
import org.fawnpack.kv.store.LogSnapshot;
import org.fawnpack.kv.store.RangeMoves;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Splits an arc's file where a joined back-end's virtual nodes now cut the arc: one sequential
 * pass ({@link RangeMoves#splitOff}) writes each lower piece to a file named by its new arc's
 * end; the top piece stays in the old file, in place (its arc ends where the old one did), with
 * the old numbering, so a replica that takes its writes before splitting its own file agrees
 * with one that split first.
 * The arc was frozen while the join settled, so every replica splits the same records. A crash
 * midway leaves no clean-stop marker, so the back-end's files are not served again anyway.
 */
final class ArcSplits {
  private static final Logger LOG = LoggerFactory.getLogger(ArcSplits.class);

  private ArcSplits() {}

  /**
   * Splits the file of every arc in {@code arcs} (by end) that {@code next} cuts, and puts the
   * pieces in its place, opened; under the back-end's lock.
   */
  static void splitCutArcs(String who, Path dir, Map<Long, ArcStore> arcs, Ring next,
      DatastoreConfig config) throws IOException {
    for (ArcStore arc : List.copyOf(arcs.values())) {
      if (isCut(arc, next)) {
        long end = arc.chain().range().endInclusive();
        long started = System.nanoTime();
        long bytes = Files.size(arc.store().path());
        long opened;
        int pieces;
        arc.lock();
        try {
          arcs.remove(end);
          List<Chain> split = split(dir, arc, next);
          opened = System.nanoTime();
          for (Chain piece : split) {
            arcs.put(piece.range().endInclusive(),
                ArcStore.open(dir, piece, next.epoch(), config));
          }
          pieces = split.size();
        } finally {
          arc.unlock();
        }
        long done = System.nanoTime();
        LOG.info("backend {}: split its file of {} ({} bytes) where epoch {} cuts it into {}"
            + " pieces: {} ms, then {} ms to open them", who, arc.chain().range(), bytes,
            next.epoch(), pieces, (opened - started) / 1_000_000, (done - opened) / 1_000_000);
      }
    }
  }

  /** True when {@code next} cuts the arc {@code arc} holds. */
  static boolean isCut(ArcStore arc, Ring next) {
    KeyRange range = arc.chain().range();
    return !next.chainFor(range.endInclusive()).range().equals(range);
  }

  /**
   * Splits {@code arc}'s file (the caller holds its lock; it is closed here) into the arcs of
   * {@code next} within its range, and returns their chains, lowest first. The top piece stays
   * in the file, in place ({@link RangeMoves#splitOff}): only the lower pieces are written, each
   * to a file of its own. The file keeps all but the lower pieces' keys (what the old split
   * gave its upper part), so a key outside the arc, were there one, is not dropped.
   */
  static List<Chain> split(Path dir, ArcStore arc, Ring next) throws IOException {
    KeyRange range = arc.chain().range();
    List<Chain> pieces = new ArrayList<>(next.chains().stream()
        .filter(c -> range.contains(c.range().endInclusive())).toList());
    // Ring order from the arc's start: the distance past it, unsigned (the arc may wrap).
    pieces.sort(Comparator.comparing((Chain c) -> c.range().endInclusive()
        - range.startExclusive() - 1, Long::compareUnsigned));
    List<KeyRange> moved = new ArrayList<>();
    List<Path> paths = new ArrayList<>();
    for (Chain piece : pieces.subList(0, pieces.size() - 1)) {
      Path file = ArcStore.fileOf(dir, piece.range().endInclusive());
      deleteLogAndIndex(file); // a new arc end: anything there is a leftover of a failed split
      moved.add(piece.range());
      paths.add(file);
    }
    // The lower pieces run from the arc's start without a gap; the file keeps the rest.
    KeyRange kept = new KeyRange(moved.get(moved.size() - 1).endInclusive(),
        range.startExclusive());
    for (Datastore part : RangeMoves.splitOff(arc.store(), moved, paths, kept)) {
      part.close();
    }
    arc.close();
    return pieces;
  }

  static void deleteLogAndIndex(Path log) throws IOException {
    Path checkpoint = LogSnapshot.checkpointOf(log);
    Files.deleteIfExists(checkpoint);
    Files.deleteIfExists(checkpoint.resolveSibling(checkpoint.getFileName() + ".tmp"));
    Files.deleteIfExists(log);
  }
}

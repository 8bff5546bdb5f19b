package org.fawnpack.kv.backend;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Splits an arc's file where a joined back-end's virtual nodes now cut the arc: one sequential
 * pass per cut ({@link Datastore#splitArc}), each piece a file named by its new arc's end; the
 * top piece keeps the old name (its arc ends where the old one did) and the old numbering, so a
 * replica that takes its writes before splitting its own file agrees with one that split first.
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
   * {@code next} within its range, and returns their chains, lowest first.
   */
  static List<Chain> split(Path dir, ArcStore arc, Ring next) throws IOException {
    KeyRange range = arc.chain().range();
    List<Chain> pieces = new ArrayList<>(next.chains().stream()
        .filter(c -> range.contains(c.range().endInclusive())).toList());
    // Ring order from the arc's start: the distance past it, unsigned (the arc may wrap).
    pieces.sort(Comparator.comparing((Chain c) -> c.range().endInclusive()
        - range.startExclusive() - 1, Long::compareUnsigned));
    Path top = ArcStore.fileOf(dir, range.endInclusive());
    Datastore rest = arc.store();
    for (int i = 0; i < pieces.size() - 1; i++) {
      Path upper = top.resolveSibling(top.getFileName() + ".split-" + i);
      // New arc ends: anything under these names is a leftover of an interrupted split.
      deleteLogAndIndex(upper);
      deleteLogAndIndex(ArcStore.fileOf(dir, pieces.get(i).range().endInclusive()));
      Datastore.SplitResult result = rest.splitArc(pieces.get(i).range(),
          ArcStore.fileOf(dir, pieces.get(i).range().endInclusive()), upper);
      result.lower().close();
      if (rest != arc.store()) {
        rest.close();
        deleteLogAndIndex(rest.path());
      }
      rest = result.upper();
    }
    Path restPath = rest.path();
    rest.close();
    arc.close();
    deleteLogAndIndex(top);
    moveLogAndIndex(restPath, top);
    return pieces;
  }

  private static void moveLogAndIndex(Path from, Path to) throws IOException {
    Path index = LogSnapshot.checkpointOf(from);
    if (Files.exists(index)) {
      Files.move(index, LogSnapshot.checkpointOf(to), StandardCopyOption.ATOMIC_MOVE);
    }
    Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
  }

  static void deleteLogAndIndex(Path log) throws IOException {
    Path checkpoint = LogSnapshot.checkpointOf(log);
    Files.deleteIfExists(checkpoint);
    Files.deleteIfExists(checkpoint.resolveSibling(checkpoint.getFileName() + ".tmp"));
    Files.deleteIfExists(log);
  }
}

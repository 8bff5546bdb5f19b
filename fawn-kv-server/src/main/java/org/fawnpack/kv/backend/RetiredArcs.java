package org.fawnpack.kv.backend;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Set;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.ring.Ring;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Arc files a back-end closed because its ring no longer has it serve them (it went down, or a
 * member that came back displaced it). Such a file is kept until the arc's chain is whole again
 * (no member still copying it), so the data has one more copy while the chain is short, and is
 * then deleted; one the back-end is copying again is left to the copy, which replaces it.
 * Used under the back-end's lock.
 */
final class RetiredArcs {
  private static final Logger LOG = LoggerFactory.getLogger(RetiredArcs.class);

  private final String id;
  private final Path dir;
  private final Set<Long> ends = new HashSet<>();

  RetiredArcs(String id, Path dir) {
    this.id = id;
    this.dir = dir;
  }

  /** {@code chain} has back-end {@code id} serving (not only copying). */
  static boolean servedBy(Chain chain, String id) {
    return contains(chain.members(), id);
  }

  /** {@code chain} has {@code id} copying the arc, and {@code arc} is that copy, made already. */
  static boolean copyingWith(Chain chain, String id, ArcStore arc) {
    return contains(chain.pending(), id) && arc.isCopy();
  }

  private static boolean contains(Iterable<Member> members, String id) {
    for (Member m : members) {
      if (m.id().equals(id)) {
        return true;
      }
    }
    return false;
  }

  void add(long arcEnd) {
    ends.add(arcEnd);
    LOG.info("backend {}: no longer serves the arc ending at {}; its file is kept until the"
        + " chain is whole again", id, Long.toHexString(arcEnd));
  }

  /**
   * Deletes the files of retired arcs whose chains are whole in {@code ring} without it, but
   * none {@code kept} names (an arc every member of which went down may be recovered from it).
   */
  void deleteWhenNotNeeded(Ring ring, java.util.function.LongPredicate kept) throws IOException {
    for (Iterator<Long> it = ends.iterator(); it.hasNext(); ) {
      long end = it.next();
      Chain chain = ring.chainFor(end);
      if (kept.test(end)) {
        continue;
      }
      // Merged into a larger arc by a removal: no copy replaces this file under its name.
      boolean merged = chain.range().endInclusive() != end;
      if (!merged && contains(chain.pending(), id)) {
        it.remove(); // copying it again: the copy replaces the file
      } else if (chain.pending().isEmpty() && (merged || !servedBy(chain, id))) {
        deleteFiles(dir, end);
        it.remove();
        LOG.info("backend {}: deleted its old file of {}, whose chain is whole without it"
            + " (epoch {})", id, chain.range(), ring.epoch());
      }
    }
  }

  /** Deletes every arc file in {@code dir} (a crashed run's, which nothing may serve). */
  static void deleteAll(Path dir) throws IOException {
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "arc-*.fds")) {
      for (Path log : files) {
        ArcSplits.deleteLogAndIndex(log);
      }
    }
  }

  private static void deleteFiles(Path dir, long arcEnd) throws IOException {
    ArcSplits.deleteLogAndIndex(ArcStore.fileOf(dir, arcEnd));
  }
}

package org.fawnpack.kv.backend;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.store.Datastore;
import org.fawnpack.kv.store.DatastoreConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A back-end's files of orphaned arcs (every serving member down, see {@code ring.Orphans})
 * whose last chain named it: each may be the one the arc is recovered from, so it is kept
 * whatever else is thrown away (a crashed run's files, retired arcs), and what it holds — its
 * last sequence number after the engine's own recovery, or none — is reported to the
 * coordinator, which picks the longest. Used under the back-end's lock.
 */
final class OrphanFiles {
  private static final Logger LOG = LoggerFactory.getLogger(OrphanFiles.class);

  private final String id;
  private final Path dir;
  private final DatastoreConfig config;
  /** Arc end to the last sequence its file holds (-1: no file), read once per arc. */
  private final Map<Long, Long> read = new HashMap<>();
  private Set<Long> reported = Set.of();

  OrphanFiles(String id, Path dir, DatastoreConfig config) {
    this.id = id;
    this.dir = dir;
    this.config = config;
  }

  /** The ends of the arcs orphaned in {@code ring} whose last chain names back-end {@code id}. */
  static Set<Long> keptIn(Ring ring, String id) {
    Set<Long> ends = new TreeSet<>(Long::compareUnsigned);
    ring.orphans().lastChains().forEach((end, last) -> {
      if (last.contains(id)) {
        ends.add(end);
      }
    });
    return ends;
  }

  /**
   * Reports what this back-end holds of the arcs orphaned in {@code ring} with it in their last
   * chain, when that set changed since the last report. Opening a file runs the engine's
   * recovery (a torn last record is cut), which is what a recovered arc will serve.
   */
  void report(Ring ring, OrphanReporter reporter) throws IOException {
    Set<Long> orphaned = keptIn(ring, id);
    if (orphaned.isEmpty() || orphaned.equals(reported)) {
      return;
    }
    Map<Long, Long> lastSequences = new HashMap<>();
    for (long end : orphaned) {
      lastSequences.put(end, read.computeIfAbsent(end, this::lastSequenceOf));
    }
    reporter.report(lastSequences);
    reported = orphaned;
    LOG.info("backend {}: reported its files of {} arcs that lost every member: {}", id,
        orphaned.size(), lastSequences.values().stream().filter(s -> s >= 0).count()
            + " held");
  }

  private long lastSequenceOf(long end) {
    Path file = ArcStore.fileOf(dir, end);
    if (!Files.exists(file)) {
      return -1;
    }
    // Read through its records, not its header nor a checkpoint: a file cut short after a
    // compaction would claim its compaction floor through either (and a checkpoint written at
    // this close would repeat the claim), so it is opened without checkpoints.
    try (Datastore store = Datastore.open(file, config.toBuilder().checkpoint(false).build())) {
      return store.recordsThroughAtOpen();
    } catch (IOException e) {
      LOG.warn("backend {}: its file of the arc ending at {} does not open ({}); reported as"
          + " not held", id, Long.toHexString(end), e.getMessage());
      return -1;
    }
  }

  /** Kept files of arcs no longer orphaned (recovered elsewhere, or back), given up now. */
  List<Long> noLongerOrphaned(Ring ring) {
    Set<Long> now = keptIn(ring, id);
    List<Long> gone = read.keySet().stream().filter(end -> !now.contains(end)).toList();
    gone.forEach(read::remove);
    if (!gone.isEmpty()) {
      reported = Set.of();
    }
    return gone;
  }
}

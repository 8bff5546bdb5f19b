package org.fawnpack.kv.backend;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.store.DatastoreConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a back-end does about its files after a crash ({@link CleanShutdown}): it serves none
 * of them as they are (fail-stop), and when the ring brings it back it throws them away and
 * copies its arcs afresh — except the files of arcs every serving member of which went down
 * (a power cut, {@link OrphanFiles}): those it keeps and reports, since one of them is where
 * the arc is recovered from, and it serves its own only when the ring names it that arc's
 * source. Used under the back-end's lock.
 */
final class CrashedRun {
  private static final Logger LOG = LoggerFactory.getLogger(CrashedRun.class);

  private final String id;
  private final Path dir;
  private final OrphanFiles orphans;
  private final java.util.concurrent.ScheduledExecutorService timer;
  /** The back-end's lock: files are opened, deleted and read for reports under it. */
  private final Object backend;
  private volatile boolean crashed;
  private boolean replaced;
  private Runnable whenReplaced = () -> { };

  CrashedRun(String id, Path dir, DatastoreConfig config, boolean crashed,
      java.util.concurrent.ScheduledExecutorService timer, Object backend) {
    this.id = id;
    this.dir = dir;
    this.crashed = crashed;
    this.orphans = new OrphanFiles(id, dir, config);
    this.timer = timer;
    this.backend = backend;
  }

  boolean crashed() {
    return crashed;
  }

  /** Runs {@code action} once the crashed run's files are thrown away (at once if they were). */
  void whenReplaced(Runnable action) {
    whenReplaced = action;
    if (replaced) {
      action.run();
    }
  }

  /**
   * Before the back-end takes {@code next}: brought back after the crash (a live member that
   * serves no arc but those it is the recovery source of), it deletes every arc file but those
   * it may still recover an arc from, and serves only copies and recovered arcs from then on.
   */
  void beforeRing(Ring next) throws IOException {
    if (!crashed || next.member(id) == null || next.isDown(id) || servesOtherThanSource(next)) {
      return;
    }
    Set<Long> keep = new HashSet<>(OrphanFiles.keptIn(next, id));
    next.orphans().sources().forEach((end, source) -> {
      if (source.equals(id)) {
        keep.add(end);
      }
    });
    int deleted = 0;
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "arc-*.fds")) {
      for (Path log : files) {
        if (!keep.contains(arcEndOf(log))) {
          ArcSplits.deleteLogAndIndex(log);
          deleted++;
        }
      }
    }
    crashed = false;
    replaced = true;
    LOG.info("backend {}: back in the ring in epoch {} after a crash; deleted its old arc files"
        + " ({}), kept {} that may recover arcs whose every member went down; copies its arcs"
        + " afresh", id, next.epoch(), deleted, keep.size());
    whenReplaced.run();
  }

  private boolean servesOtherThanSource(Ring next) {
    return next.chains().stream().anyMatch(c -> c.members().stream()
        .anyMatch(m -> m.id().equals(id))
        && !id.equals(next.orphans().sources().get(c.range().endInclusive())));
  }

  private static long arcEndOf(Path log) {
    String name = log.getFileName().toString(); // arc-<16 hex>.fds
    return Long.parseUnsignedLong(name.substring(4, 20), 16);
  }

  /** Whether the ring has this back-end serve the arc ending at {@code end} from its own file. */
  boolean recoversFromOwnFile(Ring next, long end) {
    return id.equals(next.orphans().sources().get(end))
        && Files.exists(ArcStore.fileOf(dir, end));
  }

  /** Whether its file of the arc ending at {@code end} must be kept (it may recover the arc). */
  boolean keeps(Ring ring, long end) {
    return OrphanFiles.keptIn(ring, id).contains(end);
  }

  /**
   * The ends of the arcs whose files it kept for a recovery that is over now (recovered from
   * another member, or from this one): the back-end retires those it neither serves nor
   * copies, so they are deleted once their chains are whole.
   */
  java.util.List<Long> recoveryOver(Ring next) {
    return orphans.noLongerOrphaned(next);
  }

  /**
   * Reports its files of the arcs orphaned in {@code next} (when that set changed), off the
   * ring's thread (opening a file recovers it), retried every second while {@code current}
   * is still {@code next}.
   */
  void reportSoon(Ring next, java.util.function.Supplier<Ring> current,
      OrphanReporter reporter) {
    if (OrphanFiles.keptIn(next, id).isEmpty()) {
      return;
    }
    try {
      timer.execute(() -> {
        synchronized (backend) {
          if (current.get() != next) {
            return; // a newer ring reports for itself
          }
          try {
            orphans.report(next, reporter);
          } catch (IOException | RuntimeException e) {
            LOG.warn("backend {}: cannot report its files of arcs that lost every member ({});"
                + " again in 1 s", id, e.getMessage());
            timer.schedule(() -> reportSoon(next, current, reporter), 1,
                java.util.concurrent.TimeUnit.SECONDS);
          }
        }
      });
    } catch (java.util.concurrent.RejectedExecutionException e) {
      LOG.debug("backend {}: closing; no report", id);
    }
  }
}

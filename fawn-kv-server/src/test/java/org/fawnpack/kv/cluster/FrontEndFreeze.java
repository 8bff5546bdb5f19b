package org.fawnpack.kv.cluster;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.fawnpack.kv.check.HistoryRecorder;
import org.fawnpack.kv.check.Op;
import org.fawnpack.kv.slice.SliceMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One freeze of a child front-end past its ZooKeeper session: SIGSTOP, wait until the slice
 * map no longer names it (its session expired, its keys moved) and {@link
 * #FROZEN_AFTER_MOVE_MS} more, SIGCONT; meanwhile a {@link StaleMapReader} keeps asking it for
 * the keys it served. What it records is checked with the run's history.
 */
record FrontEndFreeze(String name, long stoppedAt, long movedAt, long resumedAt,
    Set<Integer> keys) {
  private static final Logger LOG = LoggerFactory.getLogger(FrontEndFreeze.class);
  /** Frozen this long after its slice moved: clients have time to follow it. */
  static final long FROZEN_AFTER_MOVE_MS = 5_000;

  /** Freezes child front-end {@code name} of {@code cluster} and lets it go; see above. */
  static FrontEndFreeze of(ChildCluster cluster, String name, HistoryRecorder history)
      throws Exception {
    SliceMap before = cluster.frontEnd.sliceMap();
    Set<Integer> keys = new TreeSet<>();
    for (int k = 0; k < CheckedWorkload.KEYS; k++) {
      if (before.ownerOf(CheckedWorkload.key(k)).name().equals(name)) {
        keys.add(k);
      }
    }
    Set<String> others = new TreeSet<>(before.names());
    others.remove(name);
    NodeProcess process = cluster.frontEndProcesses.get(name);
    long stoppedAt;
    long movedAt;
    long resumedAt;
    try (StaleMapReader reader = new StaleMapReader(history,
        cluster.frontEndAddresses.get(name), keys, cluster.secret)) {
      process.signal("STOP");
      stoppedAt = System.nanoTime();
      reader.start();
      try {
        cluster.awaitSlices(others); // its session expired; its slice moved
        movedAt = System.nanoTime();
        Thread.sleep(FROZEN_AFTER_MOVE_MS);
      } finally {
        process.signal("CONT");
      }
      resumedAt = System.nanoTime();
      Thread.sleep(1_000); // the reader goes on asking the resumed front-end
    }
    LOG.info("{} frozen {} ms; its slice moved after {} ms; its keys {}", name,
        (resumedAt - stoppedAt) / 1_000_000, (movedAt - stoppedAt) / 1_000_000, keys);
    return new FrontEndFreeze(name, stoppedAt, movedAt, resumedAt, keys);
  }

  /**
   * Each key the frozen front-end served was asked and answered (by another front-end) while
   * it was frozen; logs how long after the freeze each key was first answered again.
   */
  void assertServedMeanwhile(HistoryRecorder history) {
    List<String> outages = new ArrayList<>();
    for (int k : keys) {
      List<Op> ops = history.histories().get(ByteBuffer.wrap(CheckedWorkload.key(k)));
      long firstAnswer = Long.MAX_VALUE; // of an operation invoked during the freeze
      for (Op op : ops == null ? List.<Op>of() : List.copyOf(ops)) {
        if (op.outcome() == Op.Outcome.OK && op.invokedAt() > stoppedAt
            && op.answeredAt() < resumedAt) {
          firstAnswer = Math.min(firstAnswer, op.answeredAt());
        }
      }
      outages.add("key-" + k + ": " + (firstAnswer == Long.MAX_VALUE ? "none"
          : (firstAnswer - stoppedAt) / 1_000_000 + " ms"));
      assertTrue(firstAnswer != Long.MAX_VALUE, "key-" + k + ", served by " + name
          + ", was not answered by another front-end while " + name + " was frozen (its slice"
          + " moved " + (movedAt - stoppedAt) / 1_000_000 + " ms in, it resumed after "
          + (resumedAt - stoppedAt) / 1_000_000 + " ms): " + outages);
    }
    LOG.info("first answer after {}'s freeze, per key it served: {}", name, outages);
  }
}

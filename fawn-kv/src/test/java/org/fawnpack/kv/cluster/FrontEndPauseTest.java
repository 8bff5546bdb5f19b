package org.fawnpack.kv.cluster;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.fawnpack.kv.check.HistoryRecorder;
import org.fawnpack.kv.check.Op;
import org.fawnpack.kv.slice.SliceMap;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A front-end frozen (SIGSTOP) past its ZooKeeper session, as a long GC pause, a swapped-out
 * process or a stalled VM freezes one, then let go (SIGCONT), under the checked workload:
 * five back-ends and front-ends f1 and f2 as child JVMs, f0 in this JVM, clients given f1 and
 * f2. While f1 is frozen its slice moves to the others; when it resumes it must not serve a
 * value from its cache, nor let a write it took before the freeze land behind its successor's
 * cache. Every key's history must be linearizable, and the keys f1 served must be served by
 * another front-end before f1 resumes (clients move after a try's timeout instead of waiting
 * out the freeze).
 */
class FrontEndPauseTest extends ChildClusterTest {
  private static final Logger LOG = LoggerFactory.getLogger(FrontEndPauseTest.class);
  /** Frozen this long after its slice moved: clients have time to follow it. */
  private static final long FROZEN_AFTER_MOVE_MS = 4_000;

  @Override
  int backends() {
    return 5;
  }

  @Test
  void frozenPastItsSession_withCaches_resumes_everyKeyLinearizable_slicesServedMeanwhile()
      throws Exception {
    freezeAndResume(Map.of("fawn.kv.frontend.cache-entries", "64"), 2);
  }

  @Test
  void frozenPastItsSession_withoutCaches_resumes_everyKeyLinearizable_slicesServedMeanwhile()
      throws Exception {
    freezeAndResume(Map.of("fawn.kv.frontend.cache-entries", "0"), 1);
  }

  /** One freeze of a front-end: when, and which keys it served before. */
  private record Freeze(long stoppedAt, long movedAt, long resumedAt, Set<Integer> keys) {}

  private void freezeAndResume(Map<String, String> frontEndSettings, int freezes)
      throws Exception {
    InetSocketAddress f1 = cluster.addFrontEnd("f1", "127.0.1.1", frontEndSettings);
    InetSocketAddress f2 = cluster.addFrontEnd("f2", "127.0.1.2", frontEndSettings);
    List<Freeze> done = new ArrayList<>();
    CheckedWorkload workload = new CheckedWorkload(cluster);
    HistoryRecorder history = workload.run(List.of(f1, f2), () -> {
      for (int i = 0; i < freezes; i++) {
        done.add(freezeF1(workload.history(), f1));
        cluster.awaitSlices(Set.of("f0", "f1", "f2")); // back, it takes its share again
        Thread.sleep(1_500); // clients keep using it, caches and all
      }
    });
    for (Freeze freeze : done) {
      assertServedMeanwhile(history, freeze);
    }
  }

  /**
   * Freezes f1 until its slice moved and {@link #FROZEN_AFTER_MOVE_MS} more, while a reader
   * with f1's old map keeps asking it for its keys (queued while it is frozen, as a slow
   * client's would be), then lets it go.
   */
  private Freeze freezeF1(HistoryRecorder history, InetSocketAddress f1) throws Exception {
    SliceMap before = cluster.frontEnd.sliceMap();
    Set<Integer> keys = new java.util.TreeSet<>();
    for (int k = 0; k < CheckedWorkload.KEYS; k++) {
      if (before.ownerOf(CheckedWorkload.key(k)).name().equals("f1")) {
        keys.add(k);
      }
    }
    NodeProcess process = cluster.frontEndProcesses.get("f1");
    long stoppedAt;
    long movedAt;
    long resumedAt;
    try (StaleMapReader reader = new StaleMapReader(history, f1, keys)) {
      process.signal("STOP");
      stoppedAt = System.nanoTime();
      reader.start();
      try {
        cluster.awaitSlices(Set.of("f0", "f2")); // its session expired; its slice moved
        movedAt = System.nanoTime();
        Thread.sleep(FROZEN_AFTER_MOVE_MS);
      } finally {
        process.signal("CONT");
      }
      resumedAt = System.nanoTime();
      Thread.sleep(1_000); // the reader goes on asking the resumed f1
    }
    LOG.info("f1 frozen {} ms; its slice moved after {} ms; its keys {}",
        (resumedAt - stoppedAt) / 1_000_000, (movedAt - stoppedAt) / 1_000_000, keys);
    return new Freeze(stoppedAt, movedAt, resumedAt, keys);
  }

  /**
   * A client that still routes by the map of before the freeze: connected to f1 before, from
   * {@link #start} it sends a GET of one of {@code keys} to f1 every 20 ms on one pipelined
   * connection, without waiting, and records
   * every get f1 answers with a value or NOT_FOUND (other answers change and tell nothing).
   */
  private final class StaleMapReader implements AutoCloseable {
    private final java.util.concurrent.atomic.AtomicBoolean stop =
        new java.util.concurrent.atomic.AtomicBoolean();
    private final List<java.util.concurrent.CompletableFuture<?>> answers =
        java.util.Collections.synchronizedList(new ArrayList<>());
    private final Thread sender;
    private final org.fawnpack.kv.wire.Connection connection;

    StaleMapReader(HistoryRecorder history, InetSocketAddress f1, Set<Integer> keys)
        throws java.io.IOException {
      connection = org.fawnpack.kv.wire.Connection.open(f1, java.time.Duration.ofSeconds(30),
          1 << 20, cluster.secret);
      List<Integer> asked = List.copyOf(keys);
      sender = new Thread(() -> {
        for (int i = 0; !stop.get() && !asked.isEmpty(); i++) {
          byte[] key = CheckedWorkload.key(asked.get(i % asked.size()));
          long invokedAt = System.nanoTime();
          answers.add(connection.send(org.fawnpack.kv.wire.MessageType.GET, 0,
              new org.fawnpack.kv.wire.Frame.Payload().addBytes(key).toBytes())
              .thenAccept(answer -> record(history, key, invokedAt, answer)));
          try {
            Thread.sleep(20);
          } catch (InterruptedException e) {
            return;
          }
        }
      }, "stale-map-reader");
    }

    void start() {
      sender.start();
    }

    private void record(HistoryRecorder history, byte[] key, long invokedAt,
        org.fawnpack.kv.wire.Frame answer) {
      long answeredAt = System.nanoTime();
      if (answer.type() == org.fawnpack.kv.wire.MessageType.NOT_FOUND) {
        history.recordGet(key, null, invokedAt, answeredAt);
      } else if (answer.type() == org.fawnpack.kv.wire.MessageType.VALUE) {
        try {
          org.fawnpack.kv.wire.Frame.Fields fields = answer.fields();
          history.recordGet(key, fields.nextBytes(1 << 20, "the value"), invokedAt,
              answeredAt);
        } catch (org.fawnpack.kv.wire.MalformedFrameException e) {
          throw new IllegalStateException("f1 answered a malformed VALUE", e);
        }
      }
    }

    @Override
    public void close() throws Exception {
      stop.set(true);
      sender.join(10_000);
      for (java.util.concurrent.CompletableFuture<?> answer : List.copyOf(answers)) {
        try {
          answer.get(10, java.util.concurrent.TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException
            | java.util.concurrent.TimeoutException e) {
          // a broken link or no answer: that get told nothing
        }
      }
      LOG.info("stale-map reader: {} gets sent to f1", answers.size());
      connection.close();
    }
  }

  /**
   * Each key f1 served was asked and answered (by another front-end) while f1 was frozen; logs
   * how long after the freeze each key was first answered again.
   */
  private static void assertServedMeanwhile(HistoryRecorder history, Freeze freeze) {
    List<String> outages = new ArrayList<>();
    for (int k : freeze.keys()) {
      List<Op> ops = history.histories().get(ByteBuffer.wrap(CheckedWorkload.key(k)));
      long firstAnswer = Long.MAX_VALUE; // of an operation invoked during the freeze
      for (Op op : ops == null ? List.<Op>of() : List.copyOf(ops)) {
        if (op.outcome() == Op.Outcome.OK && op.invokedAt() > freeze.stoppedAt()
            && op.answeredAt() < freeze.resumedAt()) {
          firstAnswer = Math.min(firstAnswer, op.answeredAt());
        }
      }
      outages.add("key-" + k + ": " + (firstAnswer == Long.MAX_VALUE ? "none"
          : (firstAnswer - freeze.stoppedAt()) / 1_000_000 + " ms"));
      assertTrue(firstAnswer != Long.MAX_VALUE, new String(CheckedWorkload.key(k),
          StandardCharsets.UTF_8) + ", served by f1, was not answered by another front-end"
          + " while f1 was frozen (its slice moved " + (freeze.movedAt() - freeze.stoppedAt())
          / 1_000_000 + " ms in, f1 resumed after " + (freeze.resumedAt() - freeze.stoppedAt())
          / 1_000_000 + " ms): " + outages);
    }
    LOG.info("first answer after the freeze, per key f1 served: {}", outages);
  }
}

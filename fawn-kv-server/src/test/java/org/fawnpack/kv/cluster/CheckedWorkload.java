package org.fawnpack.kv.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.fawnpack.kv.check.HistoryRecorder;
import org.fawnpack.kv.check.LinearizabilityChecker;
import org.fawnpack.kv.check.Op;
import org.fawnpack.kv.client.FawnKvClient;

/**
 * Clients reading and writing a few keys of a {@link ChildCluster} while a test injects faults;
 * afterwards every key must be readable and writable again (so no chain stays stuck) and each
 * key's recorded history, final reads included, must be linearizable (so no acknowledged write
 * was lost and no read went back in time).
 */
final class CheckedWorkload {
  static final int KEYS = 12;
  private static final int CLIENTS = 4;
  private static final Duration DEADLINE = Duration.ofSeconds(15);
  /**
   * Operations the clients make before the faults, and in all, before the run may end: counts,
   * not seconds, so a slower machine (or a second test JVM beside this one) runs longer
   * instead of testing less. Each wait is bounded by {@link #PROGRESS_WAIT_MS}.
   */
  private static final int BEFORE_FAULTS = 40;
  private static final int AT_LEAST = 150;
  private static final long PROGRESS_WAIT_MS = 30_000;

  /** What a test does to the cluster while the clients run. */
  interface Faults {
    void inject() throws Exception;
  }

  private final ChildCluster cluster;
  /** What key k holds when the run starts: absent (null), or {@code <tag>-k}. */
  private final String initialTag;

  CheckedWorkload(ChildCluster cluster) {
    this(cluster, null);
  }

  /**
   * A run on keys an earlier run left holding {@code <initialTag>-k} (its {@link
   * #writeEveryKey} of that tag, acknowledged, was the last write of each key).
   */
  CheckedWorkload(ChildCluster cluster, String initialTag) {
    this.cluster = cluster;
    this.initialTag = initialTag;
  }

  /** Whether the clients send gets straight to the tails (FawnKvClient.connectReadingTails). */
  private boolean readingTails;
  /** Gets the tails answered straight, over every client of the last run. */
  private final java.util.concurrent.atomic.AtomicLong tailAnswers =
      new java.util.concurrent.atomic.AtomicLong();

  /** The clients send their gets straight to the tails, by rings they follow themselves. */
  CheckedWorkload readingTails() {
    readingTails = true;
    return this;
  }

  /** Gets the tails answered straight in the last run (0 unless {@link #readingTails}). */
  long tailAnswers() {
    return tailAnswers.get();
  }

  /** Reading tails: the public form, which follows the ring on a ZooKeeper session of its own. */
  private FawnKvClient client(List<InetSocketAddress> frontEnds) throws IOException {
    return !readingTails ? FawnKvClient.connect(frontEnds, DEADLINE, cluster.secret)
        : FawnKvClient.connectReadingTails(frontEnds, DEADLINE,
            FawnKvClient.DEFAULT_TRY_TIMEOUT, cluster.secret,
            cluster.settings.get("fawn.kv.zookeeper.quorum"), ChildCluster.PATHS.cluster());
  }

  /** The history of the current run. */
  private HistoryRecorder recorder;

  /**
   * From a test's faults: writes every key once (recorded with the clients' operations) and
   * requires each to succeed, so every chain took a write at this point of the run.
   */
  void writeEveryKey(String tag) throws IOException {
    try (FawnKvClient kv = FawnKvClient.connect(cluster.frontEnd.address(), DEADLINE,
        cluster.secret)) {
      for (int i = 0; i < KEYS; i++) {
        int k = i;
        assertEquals(Op.Outcome.OK, recorder.put(kv, key(k), (tag + "-" + k).getBytes(
            StandardCharsets.UTF_8)), () -> "a write of key-" + k + " (" + tag + "): "
            + recorder.lastWriteFailure());
      }
    }
  }

  /** The history of the run in progress, for a test's faults to add operations of its own. */
  HistoryRecorder history() {
    return recorder;
  }

  static byte[] key(int k) {
    return ("key-" + k).getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Runs the clients against {@code frontEnds}, injects {@code faults} after a second and
   * {@link #BEFORE_FAULTS} operations, waits until no member is copying, lets the clients go
   * on a second more and to {@link #AT_LEAST} operations, then stops them and checks; returns
   * the history.
   */
  HistoryRecorder run(List<InetSocketAddress> frontEnds, Faults faults) throws Exception {
    HistoryRecorder recorder = new HistoryRecorder();
    this.recorder = recorder;
    // Histories are in System.nanoTime(); the nodes' logs in wall-clock time: one pair of both
    // lets a failed history be read beside the logs.
    org.slf4j.LoggerFactory.getLogger(CheckedWorkload.class).info("checked workload starts:"
        + " nanoTime {} is {}", System.nanoTime(), java.time.LocalTime.now());
    AtomicBoolean stop = new AtomicBoolean();
    // Counted down once per operation by every client.
    CountDownLatch beforeFaults = new CountDownLatch(BEFORE_FAULTS);
    CountDownLatch atLeast = new CountDownLatch(AT_LEAST);
    ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
    List<Future<Integer>> clients = new ArrayList<>();
    for (int t = 0; t < CLIENTS; t++) {
      int client = t;
      clients.add(pool.submit(() -> workload(client, frontEnds, recorder, stop,
          beforeFaults, atLeast)));
    }
    try {
      Thread.sleep(1_000);
      beforeFaults.await(PROGRESS_WAIT_MS, TimeUnit.MILLISECONDS);
      faults.inject();
      cluster.awaitCopiesServing(); // the clients keep going through any extension
      Thread.sleep(1_000);
      // Not reached in time: the run ends anyway, and the floor below says the clients stalled.
      atLeast.await(PROGRESS_WAIT_MS, TimeUnit.MILLISECONDS);
    } finally {
      stop.set(true);
      pool.shutdown();
    }
    int operations = 0;
    for (Future<Integer> client : clients) {
      operations += client.get(60, TimeUnit.SECONDS);
    }
    try (FawnKvClient kv = FawnKvClient.connect(cluster.frontEnd.address(), DEADLINE,
        cluster.secret)) {
      for (int k = 0; k < KEYS; k++) {
        recorder.getOrThrow(kv, key(k)); // every chain kept a live member
      }
    }
    // Every chain is full again and takes writes (a replacement copied, a restarted member
    // caught up), and each write reads back.
    writeEveryKey("after");
    try (FawnKvClient kv = FawnKvClient.connect(cluster.frontEnd.address(), DEADLINE,
        cluster.secret)) {
      for (int k = 0; k < KEYS; k++) {
        recorder.getOrThrow(kv, key(k));
      }
    }
    assertTrue(operations > 100, "the clients did too little to test anything: " + operations);
    org.slf4j.LoggerFactory.getLogger(CheckedWorkload.class).info("checked workload: {}"
        + " operations; compactions by back-end since each started: {}", operations,
        cluster.compactions());
    LinearizabilityChecker checker = new LinearizabilityChecker(5_000_000);
    for (Map.Entry<ByteBuffer, List<Op>> e : recorder.histories().entrySet()) {
      List<Op> history = new ArrayList<>(e.getValue());
      String key = new String(e.getKey().array(), StandardCharsets.UTF_8);
      byte[] initial = initialTag == null ? null : (initialTag + "-"
          + key.substring("key-".length())).getBytes(StandardCharsets.UTF_8);
      assertEquals(LinearizabilityChecker.Verdict.LINEARIZABLE, checker.check(history, initial),
          new String(e.getKey().array(), StandardCharsets.UTF_8) + ": " + history);
    }
    return recorder;
  }

  /**
   * Random puts (unique values), deletes and gets until {@code stop}; at most 20,000 ops. After
   * a write with an unknown outcome the client only reads until the ring or the slice map
   * changes: every such
   * write may take effect at any later time, and a few hundred of them would put the history
   * beyond any checker's reach (each doubles the orders to try).
   */
  private Integer workload(int client, List<InetSocketAddress> frontEnds,
      HistoryRecorder recorder, AtomicBoolean stop, CountDownLatch beforeFaults,
      CountDownLatch atLeast)
      throws IOException {
    Random random = new Random(client);
    int done = 0;
    long readOnlyUntilAfter = -1;
    try (FawnKvClient kv = client(frontEnds)) {
      while (!stop.get() && done < 20_000) {
        byte[] key = key(random.nextInt(KEYS));
        int dice = random.nextInt(10);
        boolean mayWrite = cluster.version() > readOnlyUntilAfter;
        Op.Outcome outcome = null;
        if (mayWrite && dice < 4) {
          outcome = recorder.put(kv, key, ("c" + client + "-" + done)
              .getBytes(StandardCharsets.UTF_8));
        } else if (mayWrite && dice < 5) {
          outcome = recorder.delete(kv, key);
        } else {
          recorder.get(kv, key);
        }
        if (outcome == Op.Outcome.INDETERMINATE) {
          readOnlyUntilAfter = cluster.version();
        }
        done++;
        beforeFaults.countDown();
        atLeast.countDown();
      }
      tailAnswers.addAndGet(kv.tailGetCounts()[0]);
    }
    return done;
  }
}

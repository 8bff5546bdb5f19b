package org.fawnpack.kv.loopback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.fawnpack.kv.auth.ClusterSecret;
import org.fawnpack.kv.check.HistoryRecorder;
import org.fawnpack.kv.check.LinearizabilityChecker;
import org.fawnpack.kv.check.Op;
import org.fawnpack.kv.client.FawnKvClient;
import org.fawnpack.kv.frontend.FrontEnd;
import org.fawnpack.kv.metrics.Jmx;
import org.fawnpack.kv.slice.SliceMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several front-ends with caches, in-process with an embedded ZooKeeper and three back-ends:
 * clients read a few hot keys and write them while one front-end stops and another starts (two
 * handovers of slices). Every key's history must be linearizable (the caches never served a
 * value older than one already shown or written), the caches must have served, and at the end
 * every live front-end serves by one settled map naming exactly the live front-ends.
 */
class SlicedFrontEndsTest {
  private static final int KEYS = 12;
  private static final int CLIENTS = 4;
  private static final Duration DEADLINE = Duration.ofSeconds(15);
  private static final Duration WAIT = Duration.ofSeconds(30);

  @TempDir
  Path dir;

  @Test
  void handovers_underReadsAndWrites_keepEveryKeyLinearizable_andTheCachesServe()
      throws Exception {
    Path secretFile = dir.resolve("secret");
    Map<String, String> settings = Map.of("fawn.kv.secret-file", secretFile.toString(),
        "fawn.kv.zookeeper.session-timeout-ms", "4000",
        "fawn.kv.frontend.cache-entries", "64");
    try (LocalCluster cluster = LocalCluster.start(settings, 3, 2, dir.resolve("kv"),
        Duration.ofSeconds(60))) {
      ClusterSecret secret = ClusterSecret.load(secretFile);
      awaitSettled(cluster, Set.of("f0", "f1"));
      HistoryRecorder recorder = new HistoryRecorder();
      AtomicBoolean stop = new AtomicBoolean();
      ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
      List<Future<Integer>> clients = new ArrayList<>();
      var addresses = cluster.frontEndAddresses();
      for (int t = 0; t < CLIENTS; t++) {
        int client = t;
        clients.add(pool.submit(() -> workload(client, addresses, secret, recorder, stop)));
      }
      long hitsBefore;
      try {
        Thread.sleep(1_000);
        cluster.stopFrontEnd("f1");
        awaitSettled(cluster, Set.of("f0"));
        Thread.sleep(500);
        cluster.addFrontEnd("f2");
        awaitSettled(cluster, Set.of("f0", "f2"));
        hitsBefore = cacheHits("f0") + cacheHits("f2");
        Thread.sleep(1_000);
      } finally {
        stop.set(true);
        pool.shutdown();
      }
      int operations = 0;
      for (Future<Integer> client : clients) {
        operations += client.get(60, TimeUnit.SECONDS);
      }
      try (FawnKvClient kv = FawnKvClient.connect(cluster.frontEndAddresses(), DEADLINE,
          secret)) {
        for (int k = 0; k < KEYS; k++) {
          recorder.getOrThrow(kv, key(k));
        }
      }
      assertTrue(operations > 200, "the clients did too little to test anything: "
          + operations);
      long hits = cacheHits("f0") + cacheHits("f2");
      assertTrue(hits > hitsBefore, "the caches served no get after the last handover: "
          + hits);
      LinearizabilityChecker checker = new LinearizabilityChecker(5_000_000);
      for (Map.Entry<ByteBuffer, List<Op>> e : recorder.histories().entrySet()) {
        List<Op> history = new ArrayList<>(e.getValue());
        assertEquals(LinearizabilityChecker.Verdict.LINEARIZABLE, checker.check(history, null),
            new String(e.getKey().array(), StandardCharsets.UTF_8) + ": " + history);
      }
    }
  }

  private static byte[] key(int k) {
    return ("key-" + k).getBytes(StandardCharsets.UTF_8);
  }

  /** Gets of two hot keys mostly, and puts and deletes; a client stops writing after an
   *  outcome it cannot know (each such write may land any time later, and doubles the
   *  orders the checker must try). */
  private static int workload(int client, List<java.net.InetSocketAddress> frontEnds,
      ClusterSecret secret, HistoryRecorder recorder, AtomicBoolean stop) throws Exception {
    Random random = new Random(client);
    int done = 0;
    boolean mayWrite = true;
    try (FawnKvClient kv = FawnKvClient.connect(frontEnds, DEADLINE, secret)) {
      while (!stop.get() && done < 20_000) {
        byte[] key = key(random.nextInt(4) == 0 ? random.nextInt(KEYS) : random.nextInt(2));
        int dice = random.nextInt(10);
        Op.Outcome outcome = null;
        if (mayWrite && dice < 2) {
          outcome = recorder.put(kv, key, ("c" + client + "-" + done)
              .getBytes(StandardCharsets.UTF_8));
        } else if (mayWrite && dice < 3) {
          outcome = recorder.delete(kv, key);
        } else {
          recorder.get(kv, key);
        }
        mayWrite &= outcome != Op.Outcome.INDETERMINATE;
        done++;
      }
    }
    return done;
  }

  private static long cacheHits(String frontEnd) throws Exception {
    return (Long) ManagementFactory.getPlatformMBeanServer().getAttribute(
        Jmx.nameOf("FrontEnd-" + frontEnd), "CacheHits");
  }

  /** Waits until every running front-end serves by one settled map naming {@code names}. */
  private static void awaitSettled(LocalCluster cluster, Set<String> names)
      throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (true) {
      List<FrontEnd> running = cluster.frontEnds();
      Set<Long> epochs = new TreeSet<>();
      boolean settled = true;
      for (FrontEnd f : running) {
        SliceMap map = f.sliceMap();
        settled &= map != null && map.settled() && new TreeSet<>(map.names()).equals(names);
        epochs.add(map == null ? -1 : map.epoch());
      }
      if (settled && epochs.size() == 1) {
        return;
      }
      if (System.nanoTime() > deadline) {
        fail("front-ends did not settle on " + names + " within " + WAIT.toSeconds() + " s: "
            + running.stream().map(f -> f.endpoint().name() + " " + f.sliceMap()).toList());
      }
      Thread.sleep(20);
    }
  }
}

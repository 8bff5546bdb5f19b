package org.fawnpack.kv.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.fawnpack.kv.client.FawnKvClient;
import org.fawnpack.kv.client.KvException;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.ring.Ring;
import org.junit.jupiter.api.Test;

/**
 * The floor of a middle member's compactions, with child JVMs: the links to a chain's tail are
 * cut, so the middle member holds overwrites of a few keys its tail never confirmed; its
 * compactions (every 200 ms, at a 5 % garbage ratio) must keep them, because after a clean
 * restart of the head and then of itself no sent list holds them, and it catches the tail up
 * from its own file. With a floor
 * at its own last write instead of what the tail confirmed, the restarted member finds those
 * overwrites compacted away and the arc takes no writes ("compacted away" in its log): this
 * test then fails where it asks each key to take a write again.
 */
class CompactionFloorTest extends ChildClusterTest {
  private static final Duration WAIT = Duration.ofSeconds(60);

  @Override
  int backends() {
    return 3;
  }

  @Override
  boolean proxied() {
    return true;
  }

  @Test
  void middleMemberRestartsWithUnconfirmedOverwrites_catchesTheTailUpFromItsCompactedFile()
      throws Exception {
    Ring ring = cluster.currentRing();
    Chain chain = ring.chainForKey(CheckedWorkload.key(0));
    Member middle = chain.members().get(1);
    Member tail = chain.tail();
    List<byte[]> keys = new ArrayList<>();
    for (int k = 0; keys.size() < 3; k++) {
      byte[] key = CheckedWorkload.key(k);
      if (ring.chainForKey(key).range().equals(chain.range())) {
        keys.add(key);
      }
    }
    try (FawnKvClient kv = FawnKvClient.connect(cluster.frontEnd.address(),
        Duration.ofSeconds(15), cluster.secret)) {
      for (byte[] key : keys) {
        kv.put(key, "before".getBytes(StandardCharsets.UTF_8));
      }
    }

    cluster.proxies.get(tail.id()).cut();
    // Overwrites the tail never gets: each one times out, its outcome unknown.
    ExecutorService writers = Executors.newFixedThreadPool(keys.size());
    List<Future<?>> pending = new ArrayList<>();
    for (byte[] key : keys) {
      pending.add(writers.submit(() -> {
        try (FawnKvClient kv = FawnKvClient.connect(cluster.frontEnd.address(),
            Duration.ofSeconds(2), cluster.secret)) {
          for (int round = 0; round < 4; round++) {
            try {
              kv.put(key, ("unconfirmed-" + round).getBytes(StandardCharsets.UTF_8));
            } catch (KvException expected) {
              // its tail is cut off: no answer
            }
          }
        }
        return null;
      }));
    }
    for (Future<?> f : pending) {
      f.get(2, TimeUnit.MINUTES);
    }
    writers.shutdown();
    Thread.sleep(1_000); // five compaction checks on the middle member

    // The head restarts too, so that no sent list in memory holds the overwrites any more:
    // only the middle member's file can give them to the tail.
    Member head = chain.head();
    cluster.restart(head.id(), false);
    cluster.awaitMovedFrom(head);
    cluster.restart(middle.id(), false);
    cluster.awaitMovedFrom(middle);
    cluster.proxies.get(tail.id()).heal();

    // Every key takes a write again (the chain caught its tail up), and reads it back.
    try (FawnKvClient kv = FawnKvClient.connect(cluster.frontEnd.address(),
        Duration.ofSeconds(5), cluster.secret)) {
      for (byte[] key : keys) {
        byte[] value = "after".getBytes(StandardCharsets.UTF_8);
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (true) {
          try {
            kv.put(key, value);
            break;
          } catch (KvException e) {
            assertTrue(System.nanoTime() < deadline, new String(key, StandardCharsets.UTF_8)
                + " takes no write after the restart: " + e.getMessage() + "; logs: "
                + cluster.logs());
            Thread.sleep(200);
          }
        }
        assertArrayEquals(value, kv.get(key));
      }
    }
  }
}

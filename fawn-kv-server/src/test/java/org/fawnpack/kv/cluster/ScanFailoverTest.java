package org.fawnpack.kv.cluster;

import org.fawnpack.kv.wire.ProtocolLimits;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.fawnpack.kv.client.FawnKvClient;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.scan.RangeScan;
import org.fawnpack.kv.scan.RingSource;
import org.fawnpack.kv.scan.ScanPage;
import org.fawnpack.kv.store.KeyRange;
import org.fawnpack.kv.wire.ConnectionPool;
import org.junit.jupiter.api.Test;

/**
 * A range scan over back-ends in child JVMs, following the ring in ZooKeeper, whose serving
 * tail is killed with SIGKILL half-way: the reader waits for the coordinator's next epoch,
 * goes on at the new tail after the sequence number it had reached, and reads every entry the
 * clients wrote exactly once.
 */
class ScanFailoverTest extends ChildClusterTest {
  @Override
  int backends() {
    return 4;
  }

  @Test
  void kill9_servingTailMidScan_everyEntryReadOnce() throws Exception {
    Map<String, String> model = new HashMap<>();
    try (FawnKvClient kv = FawnKvClient.connect(cluster.frontEnd.address(),
        ChildCluster.WAIT, cluster.secret)) {
      List<byte[]> keys = new ArrayList<>();
      List<byte[]> values = new ArrayList<>();
      for (int i = 0; i < 2_000; i++) {
        keys.add(("key " + i).getBytes(StandardCharsets.UTF_8));
        values.add(("value " + i + " " + "v".repeat(i % 97)).getBytes(StandardCharsets.UTF_8));
        model.put("key " + i, "value " + i + " " + "v".repeat(i % 97));
      }
      kv.putAll(keys, values);
    }
    try (RingSource.Watched rings = RingSource.watching(cluster.ringStore);
        ConnectionPool pool = new ConnectionPool(ChildCluster.WAIT, ProtocolLimits.MAX_FRAME_BYTES,
            cluster.secret)) {
      RangeScan scan = new RangeScan(rings, pool, KeyRange.wholeRing(),
          RangeScan.Options.defaults().withPageBytes(1024));
      Map<String, String> read = new HashMap<>();
      Ring before = cluster.currentRing();
      // Kill once a third is read and the arc being read still has pages to come: killed at
      // the end of an arc, the scan may never ask that tail again (CI saw that once).
      while (read.size() < model.size() / 3
          || unread(model, read, before, scan.reading()) < PAGES_LEFT_AT_KILL * ENTRIES_PER_PAGE) {
        ScanPage.ScanEntry e = scan.next();
        assertTrue(e != null, "the scan ended before an arc with pages left came up");
        put(read, e);
      }
      String tail = before.chainFor(scan.reading().endInclusive()).tail().id();
      cluster.kill9(tail);

      for (ScanPage.ScanEntry e = scan.next(); e != null; e = scan.next()) {
        put(read, e);
      }
      assertEquals(model, read);
      assertTrue(scan.retries() >= 1, "the killed tail was asked");
      assertTrue(cluster.currentRing().isDown(tail), "the ring marks " + tail + " down");
    }
  }

  /** A page of 1,024 bytes holds at most this many of the test's entries (each > 30 bytes). */
  private static final int ENTRIES_PER_PAGE = 1024 / 30;
  private static final int PAGES_LEFT_AT_KILL = 3;

  /** Entries of the model in {@code arc} (null: none) that the scan has not returned yet. */
  private static long unread(Map<String, String> model, Map<String, String> read, Ring ring,
      KeyRange arc) {
    if (arc == null) {
      return 0;
    }
    return model.keySet().stream().filter(k -> !read.containsKey(k))
        .filter(k -> arc.contains(ring.hash().position(k.getBytes(StandardCharsets.UTF_8))))
        .count();
  }

  private static void put(Map<String, String> read, ScanPage.ScanEntry e) {
    String key = new String(e.key(), StandardCharsets.UTF_8);
    assertNull(read.put(key, new String(e.value(), StandardCharsets.UTF_8)), key + " twice");
  }
}

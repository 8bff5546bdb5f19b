package org.fawnpack.kv.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.Random;
import org.fawnpack.kv.ring.Ring;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A power cut of the whole store under the checked workload: every back-end (child JVMs)
 * SIGKILLed at once, so every chain loses every member, then all restarted in a random order,
 * one of them with its data directory gone (a replaced card). Each arc must be recovered from
 * the longest file of its last chain and copied afresh by the rest: every key's history
 * linearizable (no acknowledged write lost, nothing served from a divergent file), every chain
 * whole again and every disk holding exactly the files of the arcs its back-end serves.
 */
class PowerCutTest extends ChildClusterTest {
  private static final Logger LOG = LoggerFactory.getLogger(PowerCutTest.class);

  @Override
  int backends() {
    return 5;
  }

  @Test
  void everyBackendKilled_restartedInRandomOrder_oneDiskGone_everyArcRecovered() throws Exception {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    CheckedWorkload workload = new CheckedWorkload(cluster);
    workload.run(List.of(cluster.frontEnd.address()), () ->
        LOG.info("power cut (seed {}): {}", seed, new PowerCut(cluster).cutAndRestore(random)));
    Ring after = cluster.currentRing();
    assertEquals(Map.of(), after.pending(), after.toString());
    cluster.awaitArcFilesMatchRing(after);
  }
}

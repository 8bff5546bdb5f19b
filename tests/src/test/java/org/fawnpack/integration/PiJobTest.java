package org.fawnpack.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.examples.QuasiMonteCarlo;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.JobCounter;
import org.fawnpack.energy.EnergyCounter;
import org.fawnpack.jobs.pi.HaltonCircle;
import org.fawnpack.jobs.pi.Pi;
import org.fawnpack.jobs.pi.PiCounter;
import org.fawnpack.minicluster.MiniClusterExtension;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** pi on a mini cluster against the stock QuasiMonteCarlo example and a direct computation. */
@Order(1) // with the other classes on ClusterJobs.sharedCluster()
class PiJobTest {
  private static final int MAPS = 4;
  private static final long SAMPLES = 250_000;

  @RegisterExtension
  static final MiniClusterExtension CLUSTER = ClusterJobs.sharedCluster();

  @Test
  void run_onCluster_sameInsideCountAsStockExampleAndDirectComputation() throws Exception {
    Pi pi = new Pi();
    assertEquals(0, ClusterJobs.run(CLUSTER.cluster(), pi, Long.toString(MAPS),
        Long.toString(SAMPLES)));
    Counters counters = pi.lastJob().getCounters();
    long inside = counters.findCounter(PiCounter.INSIDE).getValue();
    assertEquals(MAPS * SAMPLES, counters.findCounter(PiCounter.SAMPLES).getValue());

    long direct = 0;
    for (int map = 0; map < MAPS; map++) {
      direct += HaltonCircle.countInside(map * SAMPLES + 1, SAMPLES);
    }
    assertEquals(direct, inside, "the cluster's count against the same points counted here");

    Configuration conf = CLUSTER.cluster().clientConf();
    BigDecimal stock = QuasiMonteCarlo.estimatePi(MAPS, SAMPLES, new Path("/tmp/stock-pi"), conf);
    // The stock example prints 4 x inside / points: recover its inside count.
    long stockInside = stock.multiply(BigDecimal.valueOf(MAPS * SAMPLES))
        .divide(BigDecimal.valueOf(4)).longValueExact();
    assertEquals(stockInside, inside, "stock estimate " + stock);
    assertEquals(0, stock.compareTo(Pi.estimate(inside, MAPS * SAMPLES)));

    assertTrue(counters.findCounter(EnergyCounter.TASKS_METERED).getValue() == MAPS,
        "every map metered");
    // No node label, and 10^6 points are far below fawn.jobs.pi.uber-max-points: the maps ran
    // inside the AM (the JobHistory server says so), so no task JVM was started.
    assertTrue(uberized(pi), "uberized");
    assertEquals(MAPS, counters.findCounter(JobCounter.NUM_UBER_SUBMAPS).getValue());
    assertEquals(0, counters.findCounter(PiCounter.TASK_JVMS).getValue());
  }

  @Test
  void uberForcedOff_containersOfTwoVcores_sameCounts() throws Exception {
    Pi pi = new Pi();
    assertEquals(0, ClusterJobs.run(CLUSTER.cluster(), pi, "-Dmapreduce.job.ubertask.enable=false",
        "-Dmapreduce.map.cpu.vcores=2", Long.toString(MAPS), Long.toString(SAMPLES)));
    Counters counters = pi.lastJob().getCounters();
    long direct = 0;
    for (int map = 0; map < MAPS; map++) {
      direct += HaltonCircle.countInside(map * SAMPLES + 1, SAMPLES);
    }
    assertEquals(direct, counters.findCounter(PiCounter.INSIDE).getValue());
    assertFalse(uberized(pi), "uberized");
    assertEquals(0, counters.findCounter(JobCounter.NUM_UBER_SUBMAPS).getValue());
    // One task per 2-vcore slot left beside the AM's vcore (the AM shares the nodes here).
    int tasks = Math.min(MAPS, (CLUSTER.cluster().totalVcores() - 1) / 2);
    assertEquals(tasks, counters.findCounter(JobCounter.TOTAL_LAUNCHED_MAPS).getValue());
    assertEquals(tasks, counters.findCounter(PiCounter.TASK_JVMS).getValue());
    assertTrue(counters.findCounter(PiCounter.TASK_START_MILLIS).getValue() > 0);
  }

  private static boolean uberized(Pi pi) throws Exception {
    return ClusterJobs.history(CLUSTER.cluster()).uberized(pi.lastJob().getJobID().toString());
  }
}

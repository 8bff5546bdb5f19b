package org.fawnpack.minicluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** pi on a mini cluster against the stock QuasiMonteCarlo example and a direct computation. */
class PiJobTest {
  private static final int MAPS = 4;
  private static final long SAMPLES = 250_000;

  @RegisterExtension
  static final MiniClusterExtension CLUSTER = new MiniClusterExtension(b -> b.nodeManagers(2));

  @Test
  void countsTheSamePointsInsideAsTheStockExampleAndADirectComputation() throws Exception {
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
    // 10^6 points are far below fawn.jobs.pi.uber-max-points: the maps ran inside the AM.
    assertEquals(MAPS, counters.findCounter(JobCounter.NUM_UBER_SUBMAPS).getValue());
  }

  @Test
  void withOneContainerPerMap_sameCounts() throws Exception {
    Pi pi = new Pi();
    assertEquals(0, ClusterJobs.run(CLUSTER.cluster(), pi, "-Dmapreduce.job.ubertask.enable=false",
        "-Dmapreduce.map.cpu.vcores=2", Long.toString(MAPS), Long.toString(SAMPLES)));
    Counters counters = pi.lastJob().getCounters();
    long direct = 0;
    for (int map = 0; map < MAPS; map++) {
      direct += HaltonCircle.countInside(map * SAMPLES + 1, SAMPLES);
    }
    assertEquals(direct, counters.findCounter(PiCounter.INSIDE).getValue());
    assertEquals(0, counters.findCounter(JobCounter.NUM_UBER_SUBMAPS).getValue());
    assertEquals(MAPS, counters.findCounter(JobCounter.TOTAL_LAUNCHED_MAPS).getValue());
  }
}

package org.fawnpack.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class QueriesPerJouleTest {

  @Test
  void estimate_isIdlePowerSharedByTheRatePlusTheBusyShareOfTheCpu() {
    // 1,000 ops/s at 100 µs of CPU each, worked by hand: 1.40 W / 1000 = 1.4 mJ of idle power
    // per op; 100 µs × 0.28 W / 2 cores = 14 µJ busy; 1 / 1.414 mJ = 707.2 queries per joule.
    assertEquals(707.21, QueriesPerJoule.estimate(new QueriesPerJoule.Measured(1_000, 100e-6)),
        0.01);
    // No CPU at all: idle power alone, 1 / (1.40 / 2000).
    assertEquals(1428.57, QueriesPerJoule.estimate(new QueriesPerJoule.Measured(2_000, 0)),
        0.01);
  }

  @Test
  void estimate_refusesNoThroughput() {
    assertThrows(IllegalArgumentException.class,
        () -> QueriesPerJoule.estimate(new QueriesPerJoule.Measured(0, 1e-6)));
  }

  @Test
  void report_hasARowPerCellWithTheRatioToRedis_andDashesForPeersNotInstalled() {
    QueriesPerJoule q = new QueriesPerJoule();
    q.add("C", "uniform", new QueriesPerJoule.Measured(1_000, 100e-6),
        new QueriesPerJoule.Measured(2_000, 0), new QueriesPerJoule.Measured(1_000, 100e-6),
        null);
    String report = q.report();
    // direct 1,428.57 against redis 707.21: 2.02.
    assertTrue(report.contains("| C | uniform | 707 | 1,429 | 707 | – | 2.02 |"), report);
  }
}

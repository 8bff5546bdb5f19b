package org.fawnpack.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.mapreduce.Counters;
import org.fawnpack.energy.EnergyCounter;
import org.fawnpack.jobs.WordCount2;
import org.fawnpack.minicluster.EmbeddedClusterSpec;
import org.fawnpack.minicluster.MiniClusterExtension;
import org.fawnpack.minicluster.SampleInputs;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A power sensor that goes bad while jobs run never fails a job: every NodeManager reads a real
 * hwmon-style file (2 W) that the test turns into garbage, into a FIFO nobody writes (a read
 * that hangs), or deletes. Each job still succeeds with every task metered; the bad samples show
 * up as METER_GAPS, and the power held from the last good reading keeps the joules flowing.
 */
class MeterFailuresTest {
  private static final Path SYSFS =
      Path.of(EmbeddedClusterSpec.BASE_DIR.read(System::getProperty), "MeterFailuresTest-hwmon");
  private static final Path POWER = SYSFS.resolve("hwmon0/power1_input");
  private static final String TWO_WATTS = "2000000\n";

  @RegisterExtension
  static final MiniClusterExtension CLUSTER = new MiniClusterExtension(b -> {
    writeSensor();
    // Two NodeManagers, as the shared job cluster has: each is one more collector and one
    // more JVM's worth of daemons to start, and the failures here are the sensor's, not the
    // cluster's size.
    return b.nodeManagers(2).energySet("fawn.energy.meters", "board")
        .energySet("fawn.energy.meter.board.type", "hwmon")
        .energySet("fawn.energy.meter.board.sysfs-root", SYSFS.toAbsolutePath().toString())
        .energySet("fawn.energy.sample-interval-ms", "200");
  });

  private static final org.apache.hadoop.fs.Path INPUT = new org.apache.hadoop.fs.Path("/in/text");

  private static void writeSensor() {
    try {
      Files.createDirectories(POWER.getParent());
      Files.writeString(POWER.getParent().resolve("name"), "ina219\n");
      Files.writeString(POWER, TWO_WATTS);
    } catch (IOException e) {
      throw new IllegalStateException("cannot write the test sensor under " + SYSFS, e);
    }
  }

  @BeforeAll
  static void writeInput() throws Exception {
    new SampleInputs(11, 2000).writeTextFiles(CLUSTER.cluster().fileSystem(), INPUT, 6, 20_000,
        i -> { });
  }

  @Test
  void garbageInTheSensor_isCountedAsGaps_andTheJobIsMetered() throws Exception {
    Files.writeString(POWER, "not a number\n");
    try {
      Counters counters = runJob("/out/garbage");
      assertAllTasksMetered(counters);
      assertTrue(gaps(counters) > 0, "garbage must show as gaps");
      assertTrue(counters.findCounter(EnergyCounter.ENERGY_MILLIJOULES).getValue() > 0,
          "the last good 2 W is held across the gap");
    } finally {
      Files.writeString(POWER, TWO_WATTS);
    }
  }

  @Test
  void aSensorReadThatHangs_timesOut_andTheJobIsMetered() throws Exception {
    Files.delete(POWER);
    mkfifo(POWER);
    try {
      Counters counters = runJob("/out/hang");
      assertAllTasksMetered(counters);
      assertTrue(gaps(counters) > 0, "a hung read must show as gaps");
    } finally {
      Path fifo = POWER.resolveSibling("power1_input.fifo");
      Files.move(POWER, fifo);
      Files.writeString(POWER, TWO_WATTS);
      unblockFifo(fifo);
      Files.delete(fifo);
    }
  }

  @Test
  void aSensorThatDisappears_isCountedAsGaps_andTheJobIsMetered() throws Exception {
    Files.delete(POWER);
    try {
      Counters counters = runJob("/out/gone");
      assertAllTasksMetered(counters);
      assertTrue(gaps(counters) > 0, "a vanished sensor must show as gaps");
    } finally {
      Files.writeString(POWER, TWO_WATTS);
    }
  }

  private static Counters runJob(String out) throws Exception {
    WordCount2 tool = new WordCount2();
    assertEquals(0, ClusterJobs.run(CLUSTER.cluster(), tool,
        "-Dfawn.input.combine.min-split-bytes=1", INPUT.toString(), out));
    return tool.lastJob().getCounters();
  }

  private static void assertAllTasksMetered(Counters counters) {
    long tasks = counters.findCounter(org.apache.hadoop.mapreduce.JobCounter.TOTAL_LAUNCHED_MAPS).getValue()
        + counters.findCounter(org.apache.hadoop.mapreduce.JobCounter.TOTAL_LAUNCHED_REDUCES).getValue();
    assertEquals(tasks, counters.findCounter(EnergyCounter.TASKS_METERED).getValue());
    assertEquals(0, counters.findCounter(EnergyCounter.TASKS_UNMETERED).getValue());
  }

  private static long gaps(Counters counters) {
    return counters.findCounter(EnergyCounter.METER_GAPS).getValue();
  }

  private static void mkfifo(Path path) throws Exception {
    Process p = new ProcessBuilder("mkfifo", path.toString()).inheritIO().start();
    assertTrue(p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0, "mkfifo " + path);
  }

  /**
   * Opening the FIFO read-write (which never blocks on Linux, unlike a plain open for writing
   * when no reader waits) and closing it again ends every read blocked on it with EOF.
   */
  private static void unblockFifo(Path fifo) throws Exception {
    Process p = new ProcessBuilder("sh", "-c", "exec 3<>\"$1\"", "sh", fifo.toString())
        .inheritIO().start();
    assertTrue(p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0, "unblock " + fifo);
  }
}

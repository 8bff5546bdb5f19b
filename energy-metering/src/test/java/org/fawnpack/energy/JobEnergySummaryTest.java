package org.fawnpack.energy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormatCounter;
import org.junit.jupiter.api.Test;

class JobEnergySummaryTest {
  private static final String FAWN_INPUT = "org.fawnpack.input.FawnInputCounter";
  private static final Pattern METERED = Pattern.compile("Energy: (\\S+) J in tasks over (\\S+) s; "
      + "(\\S+) records/J, (\\S+) (MiB|KiB|B)/J \\((\\d+) of (\\d+) tasks metered, (\\d+) samples, "
      + "(\\d+) gaps(, ESTIMATED from a power model)?\\)");
  private static final Pattern UNMETERED = Pattern.compile(
      "Energy: not metered \\(no fawn_energy collector answered for any of the (\\d+) tasks;.*\\)");

  private static Counters counters(long energyMj, long idleMj, long samples, long gaps,
      long metered, long unmetered, long estimated, long records) {
    Counters counters = new Counters();
    counters.findCounter(EnergyCounter.ENERGY_MILLIJOULES).setValue(energyMj);
    counters.findCounter(EnergyCounter.IDLE_SHARE_MILLIJOULES).setValue(idleMj);
    counters.findCounter(EnergyCounter.SAMPLES).setValue(samples);
    counters.findCounter(EnergyCounter.METER_GAPS).setValue(gaps);
    counters.findCounter(EnergyCounter.TASKS_METERED).setValue(metered);
    counters.findCounter(EnergyCounter.TASKS_UNMETERED).setValue(unmetered);
    counters.findCounter(EnergyCounter.TASKS_ESTIMATED).setValue(estimated);
    counters.findCounter(TaskCounter.MAP_INPUT_RECORDS).setValue(records);
    return counters;
  }

  private static Matcher metered(String line) {
    Matcher m = METERED.matcher(line);
    assertTrue(m.matches(), line);
    return m;
  }

  private static double number(String text) {
    return Double.parseDouble(text.replace(",", ""));
  }

  @Test
  void describeWithAWorkUnit_countsThatWorkPerJoule() {
    Counters counters = counters(2_000_000, 0, 60, 0, 8, 0, 8, 8);
    JobEnergySummary s = JobEnergySummary.of(counters, 10_000);

    // 8 input records (one per map) would say 4 records/J; the job's work is its points.
    assertEquals("Energy: 2000.000 J in tasks over 10.0 s; 400,000 points/J (8 of 8 tasks "
        + "metered, 60 samples, 0 gaps, ESTIMATED from a power model)",
        s.describe("points", 800_000_000L));
  }

  @Test
  void describeWithAWorkUnit_unmetered_saysSo() {
    JobEnergySummary s = JobEnergySummary.of(counters(0, 0, 0, 0, 0, 3, 0, 3), 10_000);

    assertTrue(UNMETERED.matcher(s.describe("points", 1000)).matches(),
        s.describe("points", 1000));
  }

  @Test
  void from_meteredJob_figures() {
    Counters counters = counters(2_500_000, 500_000, 1200, 6, 3, 1, 0, 10_000_000);
    counters.findCounter(FileInputFormatCounter.BYTES_READ).setValue(5_242_880_000L);
    JobEnergySummary s = JobEnergySummary.of(counters, 61_234);

    assertEquals(2_500_000, s.energyMillijoules());
    assertEquals(500_000, s.idleMillijoules());
    assertEquals(1200, s.samples());
    assertEquals(6, s.gaps());
    assertEquals(3, s.tasksMetered());
    assertEquals(1, s.tasksUnmetered());
    assertEquals(0, s.tasksEstimated());
    assertEquals(10_000_000, s.inputRecords());
    assertEquals(5_242_880_000L, s.inputBytes());
    assertEquals(2500.0, s.joules(), 1e-9);
    assertEquals(61.234, s.seconds(), 1e-9);
    assertEquals(4000.0, s.recordsPerJoule(), 1e-9);
    assertEquals(2_097_152.0, s.bytesPerJoule(), 1e-6);
    assertTrue(s.metered());

    Matcher m = metered(s.describe());
    assertEquals(2500.0, number(m.group(1)), 1e-9);
    assertEquals(61.2, number(m.group(2)), 1e-9);
    assertEquals(4000.0, number(m.group(3)), 1e-9);
    assertEquals(2.0, number(m.group(4)), 1e-9);
    assertEquals("MiB", m.group(5));
    assertEquals(3, Integer.parseInt(m.group(6)));
    assertEquals(4, Integer.parseInt(m.group(7)));
    assertEquals(1200, Integer.parseInt(m.group(8)));
    assertEquals(6, Integer.parseInt(m.group(9)));
    assertEquals(null, m.group(10), "not estimated");
  }

  @Test
  void from_combinedSplitBytesLarger_counted() {
    Counters counters = counters(1000, 0, 10, 0, 2, 0, 2, 12);
    counters.findCounter(FileInputFormatCounter.BYTES_READ).setValue(1000);
    counters.findCounter(FAWN_INPUT, "BYTES_READ").setValue(512_000);
    JobEnergySummary s = JobEnergySummary.of(counters, 2000);

    assertEquals(512_000, s.inputBytes());
    assertEquals(512_000.0, s.bytesPerJoule(), 1e-9);
    Matcher m = metered(s.describe());
    assertEquals(1.0, number(m.group(1)), 1e-9);
    assertEquals(12.0, number(m.group(3)), 1e-9);
    assertEquals(500.0, number(m.group(4)), 1e-9); // 512000 B = 500 KiB
    assertEquals("KiB", m.group(5));
    assertEquals(2, Integer.parseInt(m.group(7)));
    assertTrue(m.group(10) != null, "estimated");
  }

  @Test
  void from_fileInputFormatBytesLarger_counted() {
    Counters counters = counters(4000, 0, 4, 0, 1, 0, 0, 12);
    counters.findCounter(FileInputFormatCounter.BYTES_READ).setValue(2000);
    counters.findCounter(FAWN_INPUT, "BYTES_READ").setValue(1500);
    JobEnergySummary s = JobEnergySummary.of(counters, 1000);

    assertEquals(2000, s.inputBytes());
    Matcher m = metered(s.describe());
    assertEquals(4.0, number(m.group(1)), 1e-9);
    assertEquals(1.0, number(m.group(2)), 1e-9);
    assertEquals(3.0, number(m.group(3)), 1e-9);
    assertEquals(500.0, number(m.group(4)), 1e-9);
    assertEquals("B", m.group(5));
  }

  @Test
  void from_unmeteredJob_noEnergy() {
    Counters counters = counters(0, 0, 0, 0, 0, 5, 0, 100);
    JobEnergySummary s = JobEnergySummary.of(counters, 3000);

    assertFalse(s.metered());
    assertEquals(0.0, s.joules());
    assertTrue(Double.isNaN(s.recordsPerJoule()));
    assertTrue(Double.isNaN(s.bytesPerJoule()));
    Matcher m = UNMETERED.matcher(s.describe());
    assertTrue(m.matches(), s.describe());
    assertEquals(5, Integer.parseInt(m.group(1)));
  }

  @Test
  void from_meteredTasksWithoutEnergy_noRates() {
    JobEnergySummary s = JobEnergySummary.of(counters(0, 0, 0, 0, 2, 0, 0, 100), 1500);
    assertTrue(s.metered());
    assertTrue(Double.isNaN(s.recordsPerJoule()));
    Matcher m = metered(s.describe());
    assertEquals("n/a", m.group(3));
    assertEquals("n/a", m.group(4));
    assertEquals(0.0, number(m.group(1)));
  }

  @Test
  void from_noEnergyGroup_unmeteredJob() {
    Counters counters = new Counters();
    counters.findCounter(TaskCounter.MAP_INPUT_RECORDS).setValue(7);
    JobEnergySummary s = JobEnergySummary.of(counters, 10);
    assertEquals(new JobEnergySummary(0, 0, 0, 0, 0, 0, 0, 7, 0, 10), s);
    assertEquals("Energy: not metered (no task finished, so none asked a fawn_energy collector)",
        s.describe());
  }

  @Test
  void failedBeforeAnyTask_saysSoAndNotThatNoCollectorAnswered() {
    String line = JobEnergySummary.failedBeforeAnyTask();
    assertTrue(line.startsWith("Energy: none (the job failed before any task finished"), line);
    assertFalse(UNMETERED.matcher(line).matches(), line);
  }
}

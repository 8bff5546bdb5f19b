package org.fawnpack.energy.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcStatCpuUtilisationTest {
  @TempDir
  Path proc;

  /** Writes /proc/stat: aggregate line then a per-CPU line that must be ignored. */
  private void stat(String cpuFields) {
    FakeProc.write(proc.resolve("stat"), "cpu  " + cpuFields + "\ncpu0 9 9 9 9 9 9 9 9 0 0\n"
        + "intr 12345 0 0\nctxt 999\n");
  }

  @Test
  void read_twoCalls_busyIsTotalMinusIdleAndIowait() throws IOException {
    ProcStatCpuUtilisation utilisation = new ProcStatCpuUtilisation(proc);
    //    user nice system idle iowait irq softirq steal guest guest_nice
    stat("100 0 50 800 50 0 0 0 0 0");
    assertTrue(Double.isNaN(utilisation.sinceLastCall()));
    // +60 user, +40 system, +290 idle, +10 iowait: 100 busy of 400. Guest time is already in
    // user, so its growth must not count again.
    stat("160 0 90 1090 60 0 0 0 5000 0");
    assertEquals(0.25, utilisation.sinceLastCall(), 1e-12);
    // irq, softirq and steal count as busy-side total time.
    stat("160 0 90 1090 60 30 10 10 5000 0");
    assertEquals(1.0, utilisation.sinceLastCall(), 1e-12);
  }

  @Test
  void read_noTimePassed_repeatsLastValue() throws IOException {
    ProcStatCpuUtilisation utilisation = new ProcStatCpuUtilisation(proc);
    stat("0 0 0 100 0 0 0 0 0 0");
    utilisation.sinceLastCall();
    stat("50 0 0 150 0 0 0 0 0 0");
    assertEquals(0.5, utilisation.sinceLastCall(), 1e-12);
    assertEquals(0.5, utilisation.sinceLastCall(), 1e-12);
  }

  @Test
  void read_counterGoesBackwards_baselineRestartsAndStaysInRange() throws IOException {
    ProcStatCpuUtilisation utilisation = new ProcStatCpuUtilisation(proc);
    stat("100 0 0 100 50 0 0 0 0 0");
    utilisation.sinceLastCall();
    stat("10 0 0 10 0 0 0 0 0 0"); // total fell
    assertTrue(Double.isNaN(utilisation.sinceLastCall()));
    stat("10 0 0 20 0 0 0 0 0 0");
    assertEquals(0.0, utilisation.sinceLastCall(), 1e-12);
    // Idle went backwards (seen with some NO_HZ kernels): more busy than total, clamped to 1.
    stat("20 0 0 19 0 0 0 0 0 0");
    assertEquals(1.0, utilisation.sinceLastCall(), 1e-12);
  }

  @Test
  void read_oldKernelWithFourFields_parsed() throws IOException {
    ProcStatCpuUtilisation utilisation = new ProcStatCpuUtilisation(proc);
    stat("1 0 1 8");
    utilisation.sinceLastCall();
    stat("4 0 2 12");
    assertEquals(0.5, utilisation.sinceLastCall(), 1e-12);
  }

  @Test
  void read_missingOrBrokenFile_throwsIoException() {
    ProcStatCpuUtilisation utilisation = new ProcStatCpuUtilisation(proc.resolve("none"));
    assertThrows(IOException.class, utilisation::sinceLastCall);
    FakeProc.write(proc.resolve("stat"), "cpu  a b c d\n");
    assertThrows(IOException.class, new ProcStatCpuUtilisation(proc)::sinceLastCall);
  }

  @Test
  void read_realProcStat_givesUtilisationInRange() throws IOException {
    if (!java.nio.file.Files.isReadable(Path.of("/proc/stat"))) {
      return;
    }
    ProcStatCpuUtilisation utilisation = new ProcStatCpuUtilisation();
    assertTrue(Double.isNaN(utilisation.sinceLastCall()));
    double u = utilisation.sinceLastCall();
    assertTrue(Double.isNaN(u) || (u >= 0 && u <= 1), "utilisation " + u);
  }
}

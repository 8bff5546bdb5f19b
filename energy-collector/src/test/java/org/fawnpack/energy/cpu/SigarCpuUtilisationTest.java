package org.fawnpack.energy.cpu;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/** SIGAR on the real machine (Linux amd64, where the native jar has a library). */
@EnabledOnOs(OS.LINUX)
@EnabledIfSystemProperty(named = "os.arch", matches = "amd64|x86_64")
class SigarCpuUtilisationTest {

  @Test
  void read_onThisHost_betweenZeroAndOne() throws IOException, InterruptedException {
    CpuUtilisation utilisation = SigarCpuUtilisation.create().orElseThrow();
    assertTrue(Double.isNaN(utilisation.sinceLastCall()), "first call has nothing to compare");
    // The counters move in clock ticks: poll until one has passed.
    double u = Double.NaN;
    long deadline = System.nanoTime() + 3_000_000_000L;
    while (Double.isNaN(u) && System.nanoTime() < deadline) {
      Thread.sleep(20);
      u = utilisation.sinceLastCall();
    }
    assertTrue(u >= 0 && u <= 1, "utilisation " + u);
  }

  @Test
  void choose_sigarLoadable_chosen() {
    assertInstanceOf(SigarCpuUtilisation.class, HostCpuUtilisation.create());
  }
}

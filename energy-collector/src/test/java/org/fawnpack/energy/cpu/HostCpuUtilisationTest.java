package org.fawnpack.energy.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HostCpuUtilisationTest {

  @Test
  void choose_sigarUnavailable_fallsBackToProcStat(@TempDir Path proc) throws IOException {
    CpuUtilisation utilisation = HostCpuUtilisation.create(
        SigarLoader.Status.unavailable("SIGAR 1.6.4 has no native library for Linux/aarch64"),
        proc);
    assertInstanceOf(ProcStatCpuUtilisation.class, utilisation);
    FakeProc.write(proc.resolve("stat"), "cpu  0 0 0 10 0 0 0 0 0 0\n");
    utilisation.sinceLastCall();
    FakeProc.write(proc.resolve("stat"), "cpu  3 0 1 14 0 0 0 0 0 0\n");
    assertEquals(0.5, utilisation.sinceLastCall(), 1e-12);
  }
}

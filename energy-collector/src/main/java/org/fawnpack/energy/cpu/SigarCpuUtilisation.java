package org.fawnpack.energy.cpu;

import java.io.IOException;
import java.util.Optional;
import org.hyperic.sigar.Cpu;
import org.hyperic.sigar.Sigar;
import org.hyperic.sigar.SigarException;

/**
 * Host CPU utilisation from SIGAR's cumulative CPU times, differenced between calls. Busy is total
 * minus idle minus I/O wait, as for {@link ProcStatCpuUtilisation}. Use
 * {@link #create()} (or {@link HostCpuUtilisation}), which loads the native library first.
 */
public final class SigarCpuUtilisation implements CpuUtilisation {
  private final Sigar sigar;
  private final CpuTimesDelta delta = new CpuTimesDelta();

  SigarCpuUtilisation(Sigar sigar) {
    this.sigar = sigar;
  }

  /** A SIGAR reader, or empty when SIGAR cannot load here ({@link SigarLoader#ensureLoaded}). */
  public static Optional<SigarCpuUtilisation> create() {
    if (!SigarLoader.ensureLoaded().available()) {
      return Optional.empty();
    }
    try {
      return Optional.of(new SigarCpuUtilisation(new Sigar()));
    } catch (RuntimeException | LinkageError e) {
      return Optional.empty();
    }
  }

  @Override
  public synchronized double sinceLastCall() throws IOException {
    Cpu cpu;
    try {
      cpu = sigar.getCpu();
    } catch (SigarException | LinkageError e) {
      throw new IOException("SIGAR getCpu failed: " + e, e);
    }
    long total = cpu.getTotal();
    return delta.update(total - cpu.getIdle() - cpu.getWait(), total);
  }
}

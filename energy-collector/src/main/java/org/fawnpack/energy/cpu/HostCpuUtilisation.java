package org.fawnpack.energy.cpu;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import org.hyperic.sigar.Sigar;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses how to read host CPU utilisation: SIGAR where its native library loads, else
 * {@code /proc/stat}.
 */
public final class HostCpuUtilisation {
  private static final Logger LOG = LoggerFactory.getLogger(HostCpuUtilisation.class);
  private static final AtomicBoolean LOGGED = new AtomicBoolean();

  private HostCpuUtilisation() {
  }

  /** SIGAR if it loads in this JVM, else {@code /proc/stat}; logs the choice once at INFO. */
  public static CpuUtilisation create() {
    return create(SigarLoader.ensureLoaded(), Path.of("/proc"));
  }

  static CpuUtilisation create(SigarLoader.Status sigar, Path procRoot) {
    if (sigar.available()) {
      try {
        CpuUtilisation chosen = new SigarCpuUtilisation(new Sigar());
        logOnce("Host CPU utilisation from SIGAR: {}", sigar.detail());
        return chosen;
      } catch (RuntimeException | LinkageError e) {
        sigar = SigarLoader.Status.unavailable("SIGAR failed to start: " + e);
      }
    }
    logOnce("Host CPU utilisation from {}/stat ({})", procRoot, sigar.detail());
    return new ProcStatCpuUtilisation(procRoot);
  }

  private static void logOnce(String format, Object... args) {
    if (LOGGED.compareAndSet(false, true)) {
      LOG.info(format, args);
    }
  }
}

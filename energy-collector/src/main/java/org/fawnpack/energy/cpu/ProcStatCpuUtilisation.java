package org.fawnpack.energy.cpu;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Host CPU utilisation from the aggregate {@code cpu } line of {@code /proc/stat}: the fallback
 * where SIGAR has no native library (ARM boards such as the Edison's successors, Raspberry Pis).
 */
public final class ProcStatCpuUtilisation implements CpuUtilisation {
  // cpu  user nice system idle iowait irq softirq steal guest guest_nice
  private static final int IDLE = 3;
  private static final int IOWAIT = 4;
  // guest and guest_nice are already counted in user and nice: summing them would count twice.
  private static final int SUMMED_FIELDS = 8;

  private final Path stat;
  private final CpuTimesDelta delta = new CpuTimesDelta();

  /** Reads {@code /proc/stat}. */
  public ProcStatCpuUtilisation() {
    this(Path.of("/proc"));
  }

  /** Reads {@code <procRoot>/stat}; tests pass a fake tree. */
  public ProcStatCpuUtilisation(Path procRoot) {
    this.stat = procRoot.resolve("stat");
  }

  @Override
  public synchronized double sinceLastCall() throws IOException {
    long[] fields = readCpuLine();
    long total = 0;
    for (int i = 0; i < Math.min(SUMMED_FIELDS, fields.length); i++) {
      total += fields[i];
    }
    long notBusy = fields[IDLE] + (fields.length > IOWAIT ? fields[IOWAIT] : 0);
    return delta.update(total - notBusy, total);
  }

  private long[] readCpuLine() throws IOException {
    try (BufferedReader in = Files.newBufferedReader(stat, StandardCharsets.US_ASCII)) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        if (line.startsWith("cpu ")) {
          String[] words = line.substring(4).trim().split("\\s+");
          if (words.length <= IDLE) {
            break;
          }
          long[] fields = new long[words.length];
          try {
            for (int i = 0; i < words.length; i++) {
              fields[i] = Long.parseLong(words[i]);
            }
          } catch (NumberFormatException e) {
            throw new IOException("unexpected 'cpu ' line in " + stat + ": " + line, e);
          }
          return fields;
        }
      }
    }
    throw new IOException("no aggregate 'cpu ' line in " + stat);
  }
}

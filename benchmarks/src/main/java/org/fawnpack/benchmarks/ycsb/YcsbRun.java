package org.fawnpack.benchmarks.ycsb;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One run of YCSB's own client ({@code site.ycsb.Client}, through {@link YcsbMain}) in a child
 * JVM, as YCSB users run it, and the figures it exported: operations, throughput, latency
 * percentiles per operation; and the CPU time the client used.
 */
public final class YcsbRun {

  /** What YCSB reported for one run. */
  public record Result(double seconds, double opsPerSecond, Map<String, Map<String, Double>> byOp,
      double clientCpuSeconds) {
    /** The same figures, with the CPU seconds the client's JVM used. */
    Result withClientCpu(double cpuSeconds) {
      return new Result(seconds, opsPerSecond, byOp, cpuSeconds);
    }

    /** Operations of all kinds the run made. */
    public double operations() {
      return opsPerSecond * seconds;
    }

    /** A figure YCSB exported, e.g. {@code ("READ", "99thPercentileLatency(us)")}; 0 if none. */
    public double get(String operation, String metric) {
      return byOp.getOrDefault(operation, Map.of()).getOrDefault(metric, 0.0);
    }

    /** Operations of that kind that completed OK, per second of the run. */
    public double okPerSecond(String operation) {
      return get(operation, "Return=OK") / seconds;
    }

    /** Operations of any kind that did not return OK (errors, not found, failed). */
    public double notOk() {
      double total = 0;
      for (Map.Entry<String, Map<String, Double>> op : byOp.entrySet()) {
        for (Map.Entry<String, Double> m : op.getValue().entrySet()) {
          if (m.getKey().startsWith("Return=") && !m.getKey().equals("Return=OK")) {
            total += m.getValue();
          }
        }
      }
      return total;
    }
  }

  private YcsbRun() {}

  /**
   * Runs YCSB's client with binding {@code db}, {@code threads} threads and the properties
   * given, loading ({@code load}) or running the transactions; its console output goes to
   * {@code log}.
   *
   * @throws IOException when it fails or exports nothing, naming its log
   */
  public static Result run(Class<?> db, boolean load, int threads, Map<String, String> properties,
      Path log) throws IOException, InterruptedException {
    Path export = Files.createTempFile(log.getParent(), "ycsb-", ".txt");
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), YcsbMain.class.getName(),
        load ? "-load" : "-t", "-db", db.getName(), "-threads", Integer.toString(threads)));
    Map<String, String> all = new HashMap<>(properties);
    all.put("exportfile", export.toString());
    all.forEach((k, v) -> {
      command.add("-p");
      command.add(k + "=" + v);
    });
    Process process = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(log.toFile()).redirectInput(new File("/dev/null")).start();
    try {
      if (!process.waitFor(30, TimeUnit.MINUTES)) {
        throw new IOException("YCSB did not finish within 30 minutes; see " + log);
      }
    } finally {
      process.destroyForcibly();
    }
    if (process.exitValue() != 0) {
      throw new IOException("YCSB exited with " + process.exitValue() + "; see " + log);
    }
    try {
      return parse(Files.readAllLines(export)).withClientCpu(clientCpuSeconds(log));
    } finally {
      Files.deleteIfExists(export);
    }
  }

  /** The client JVM's CPU seconds as {@link YcsbMain} printed them at exit (NaN if missing). */
  static double clientCpuSeconds(Path log) throws IOException {
    for (String line : Files.readAllLines(log)) {
      if (line.startsWith(YcsbMain.CPU_LINE)) {
        return Long.parseLong(line.substring(YcsbMain.CPU_LINE.length()).trim()) / 1e9;
      }
    }
    return Double.NaN;
  }

  /** Parses YCSB's text export: lines {@code [OPERATION], metric, value}. */
  static Result parse(List<String> lines) throws IOException {
    Map<String, Map<String, Double>> byOp = new HashMap<>();
    for (String line : lines) {
      String[] parts = line.split(", ", 3);
      if (parts.length == 3 && parts[0].startsWith("[") && parts[0].endsWith("]")) {
        try {
          byOp.computeIfAbsent(parts[0].substring(1, parts[0].length() - 1),
              k -> new HashMap<>()).put(parts[1], Double.parseDouble(parts[2].trim()));
        } catch (NumberFormatException e) {
          // YCSB exports a few non-numeric figures; none is used here.
        }
      }
    }
    Map<String, Double> overall = byOp.get("OVERALL");
    if (overall == null || !overall.containsKey("RunTime(ms)")) {
      throw new IOException("YCSB exported no [OVERALL] run time");
    }
    return new Result(overall.get("RunTime(ms)") / 1000.0,
        overall.getOrDefault("Throughput(ops/sec)", 0.0), byOp, Double.NaN);
  }
}

package org.fawnpack.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.fawnpack.benchmarks.ycsb.EtcdCluster;
import org.fawnpack.benchmarks.ycsb.FawnKvYcsbClient;
import org.fawnpack.benchmarks.ycsb.RedisServer;
import org.fawnpack.benchmarks.ycsb.RedisYcsbClient;
import org.fawnpack.benchmarks.ycsb.YcsbRun;
import org.fawnpack.kv.loopback.LoopbackCluster;

/**
 * YCSB's core workloads A (50 % reads, 50 % updates), B (95/5) and C (reads only), uniform and
 * zipfian, run by YCSB's own client in a child JVM against FAWN-KV (4 back-ends, chains of 3,
 * one front-end) and against redis-server (AOF synced every second) with the same threads,
 * cell by cell. Writes the "fawn-kv-ycsb" section of docs/benchmarks.md.
 */
final class KvYcsbPart {
  static final String BEGIN = "<!-- BEGIN fawn-kv-ycsb (written by KvClusterBenchmark) -->";
  static final String END = "<!-- END fawn-kv-ycsb -->";
  private static final String[][] WORKLOADS = {{"A", "0.5"}, {"B", "0.95"}, {"C", "1.0"}};
  private static final String[] DISTRIBUTIONS = {"uniform", "zipfian"};

  private KvYcsbPart() {}

  static void run(KvClusterOptions options) throws Exception {
    Path dir = options.dir().resolve("ycsb");
    Path logs = dir.resolve("logs");
    int threads = options.clients();
    int seconds = options.seconds();
    String command = "./fawn bench-kv-cluster --part ycsb --ycsb-records "
        + options.ycsbRecords() + " --seconds " + seconds + " --clients " + threads;
    Instant started = Instant.now();
    double loadBefore = Machine.loadAverage();
    Optional<Path> redisProgram = RedisServer.find();
    Optional<Path> etcdProgram = EtcdCluster.find();
    EtcdPeer etcdPeer = new EtcdPeer(threads, logs);
    List<String> rows = new ArrayList<>();
    List<String> cpuRows = new ArrayList<>();
    QueriesPerJoule perJoule = new QueriesPerJoule();
    double worstReadRatio = Double.MAX_VALUE;
    double worstDirectRatio = Double.MAX_VALUE;
    Map<String, List<Double>> directRatios = new HashMap<>();
    List<Double> directGetCpu = new ArrayList<>();
    double notOk = 0;
    // Back-ends answer gets sent straight to a tail under a 1 s read lease (the direct rows).
    try (LoopbackCluster cluster = LoopbackCluster.start(dir.resolve("fawn-kv"), 4, 1,
        Map.of("fawn.kv.tail-read-lease-ms", "1000"));
        RedisServer redis = redisProgram.isPresent()
            ? RedisServer.start(redisProgram.get(), dir.resolve("redis")) : null;
        EtcdCluster etcd = etcdProgram.isPresent()
            ? EtcdCluster.start(etcdProgram.get(), dir.resolve("etcd")) : null) {
      Files.createDirectories(logs);
      Map<String, String> fawnKv = new HashMap<>(common(options));
      fawnKv.put(FawnKvYcsbClient.FRONTENDS, cluster.frontEndAddresses().stream()
          .map(a -> a.getHostString() + ":" + a.getPort()).collect(Collectors.joining(",")));
      fawnKv.put(FawnKvYcsbClient.SECRET, cluster.secretFile().toAbsolutePath().toString());
      Map<String, String> direct = with(fawnKv, Map.of(FawnKvYcsbClient.ZOOKEEPER,
          cluster.zooKeeperQuorum()));
      Map<String, String> warmLoad = warmLoad(options);
      YcsbRun.run(FawnKvYcsbClient.class, true, threads, with(fawnKv, warmLoad),
          logs.resolve("fawn-kv-warm-load.log"));
      YcsbRun.Result fawnLoad = YcsbRun.run(FawnKvYcsbClient.class, true, threads, fawnKv,
          logs.resolve("fawn-kv-load.log"));
      notOk += fawnLoad.notOk();
      Map<String, String> redisProps = new HashMap<>(common(options));
      YcsbRun.Result redisLoad = null;
      if (redis != null) {
        redisProps.put(RedisYcsbClient.PORT, Integer.toString(redis.port()));
        YcsbRun.run(RedisYcsbClient.class, true, threads, with(redisProps, warmLoad),
            logs.resolve("redis-warm-load.log"));
        redisLoad = YcsbRun.run(RedisYcsbClient.class, true, threads, redisProps,
            logs.resolve("redis-load.log"));
      }
      if (etcd != null) {
        etcdPeer.load(etcd, common(options), warmLoad, fawnLoad);
      }
      rows.add(String.format(Locale.ROOT, "| load | – | %,.0f | – | %,.0f | – | – | – | %s | – |"
          + " %s | – | – |", fawnLoad.opsPerSecond(),
          fawnLoad.get("INSERT", "99thPercentileLatency(us)"),
          redisLoad == null ? "–" : String.format(Locale.ROOT, "%,.0f",
              redisLoad.opsPerSecond()),
          redisLoad == null ? "–" : String.format(Locale.ROOT, "%,.0f",
              redisLoad.get("INSERT", "99thPercentileLatency(us)"))));
      System.out.println(rows.get(rows.size() - 1));
      // Unrecorded: a few seconds of workload A warm every JVM's read and write paths (JIT),
      // and a run of no operations measures what starting a client JVM costs in CPU.
      Map<String, String> warm = Map.of("readproportion", "0.5", "updateproportion", "0.5",
          "requestdistribution", "uniform", "maxexecutiontime", Integer.toString(seconds));
      YcsbRun.run(FawnKvYcsbClient.class, false, threads, with(fawnKv, warm),
          logs.resolve("fawn-kv-warm-up.log"));
      YcsbRun.run(FawnKvYcsbClient.class, false, threads, with(direct, warm),
          logs.resolve("fawn-kv-direct-warm-up.log"));
      double fawnStartCpu = YcsbRun.run(FawnKvYcsbClient.class, false, threads,
          with(fawnKv, Map.of("operationcount", "0")), logs.resolve("fawn-kv-start.log"))
          .clientCpuSeconds();
      double directStartCpu = YcsbRun.run(FawnKvYcsbClient.class, false, threads,
          with(direct, Map.of("operationcount", "0")), logs.resolve("fawn-kv-direct-start.log"))
          .clientCpuSeconds();
      if (etcd != null) {
        etcdPeer.warm(warm);
      }
      double redisStartCpu = 0;
      if (redis != null) {
        YcsbRun.run(RedisYcsbClient.class, false, threads, with(redisProps, warm),
            logs.resolve("redis-warm-up.log"));
        redisStartCpu = YcsbRun.run(RedisYcsbClient.class, false, threads,
            with(redisProps, Map.of("operationcount", "0")), logs.resolve("redis-start.log"))
            .clientCpuSeconds();
      }
      for (String[] workload : WORKLOADS) {
        for (String distribution : DISTRIBUTIONS) {
          String cell = workload[0] + "-" + distribution;
          Map<String, String> mix = Map.of("readproportion", workload[1],
              "updateproportion", Double.toString(1 - Double.parseDouble(workload[1])),
              "requestdistribution", distribution,
              "maxexecutiontime", Integer.toString(seconds));
          FawnCell f = FawnCell.run(cluster, threads, with(fawnKv, mix),
              logs.resolve("fawn-kv-" + cell + ".log"), fawnStartCpu);
          FawnCell d = FawnCell.run(cluster, threads, with(direct, mix),
              logs.resolve("fawn-kv-direct-" + cell + ".log"), directStartCpu);
          notOk += f.result().notOk() + d.result().notOk();
          QueriesPerJoule.Measured etcdCell = etcd == null ? null
              : etcdPeer.cell(workload[0], distribution, mix, f);
          double redisCpu = redis == null ? 0 : CpuTime.seconds(List.of(redis.process()));
          YcsbRun.Result r = redis == null ? null : YcsbRun.run(RedisYcsbClient.class, false,
              threads, with(redisProps, mix), logs.resolve("redis-" + cell + ".log"));
          redisCpu = redis == null ? 0 : CpuTime.seconds(List.of(redis.process())) - redisCpu;
          cpuRows.add(cpuRow(workload[0], distribution, f, d, r, redisStartCpu, redisCpu));
          perJoule.add(workload[0], distribution, f.measured(), d.measured(), r == null ? null
              : new QueriesPerJoule.Measured(r.opsPerSecond(), redisCpu / r.operations()),
              etcdCell);
          if (workload[0].equals("C")) {
            directGetCpu.add(d.allMicros());
          }
          double ratio = r == null ? Double.NaN : f.result().okPerSecond("READ")
              / r.okPerSecond("READ");
          double directRatio = r == null ? Double.NaN : d.result().okPerSecond("READ")
              / r.okPerSecond("READ");
          if (r != null) {
            worstReadRatio = Math.min(worstReadRatio, ratio);
            worstDirectRatio = Math.min(worstDirectRatio, directRatio);
            directRatios.computeIfAbsent(workload[0], w -> new ArrayList<>()).add(directRatio);
          }
          String row = String.format(Locale.ROOT, "| %s | %s | %,.0f | %s | %s | %,.0f | %s |"
              + " %s | %s | %s | %s | %s | %s |", workload[0], distribution,
              f.result().opsPerSecond(), p99(f.result(), "READ"), p99(f.result(), "UPDATE"),
              d.result().opsPerSecond(), p99(d.result(), "READ"), p99(d.result(), "UPDATE"),
              r == null ? "–" : String.format(Locale.ROOT, "%,.0f", r.opsPerSecond()),
              r == null ? "–" : p99(r, "READ"), r == null ? "–" : p99(r, "UPDATE"),
              r == null ? "–" : String.format(Locale.ROOT, "%.2f", ratio),
              r == null ? "–" : String.format(Locale.ROOT, "%.2f", directRatio));
          System.out.println(row);
          rows.add(row);
        }
      }
    }
    double loadAfter = Machine.loadAverage();
    StringBuilder report = new StringBuilder();
    report.append("### FAWN-KV cluster: YCSB against redis-server and etcd\n\n");
    report.append(String.format(Locale.ROOT, "Ran %s on %s, `%s`; load average %.2f before,"
        + " %.2f after. YCSB 0.17.0's own client (`site.ycsb.Client`) in a child JVM, %d"
        + " threads, %,d records of 10 fields × 100 bytes, all fields read and written"
        + " (`writeallfields=true`: a FAWN-KV record is one value), %d s per cell. FAWN-KV: 4"
        + " back-ends as child JVMs on 127.0.0.1–.4, chains of 3, one front-end (its cache at"
        + " the default N log2 N), a put acknowledged once every member of its chain forced it"
        + " (`fawn.kv.durability=every-member`, the default). redis-server %s:"
        + " one process, `appendonly yes`, `appendfsync everysec` (a write acknowledged before"
        + " it is on disk; up to a second of writes lost in a crash), no replica. Latency"
        + " percentiles in µs as YCSB measured them. Unrecorded, on each system: before its"
        + " load, a load of %,d other records (keys after the measured ones, which stay in the"
        + " store), so that the load row measures warm JVMs as the workloads do; before the"
        + " workloads, %d s of workload A (warming every JVM's read and update paths).%n%n",
        started.truncatedTo(ChronoUnit.SECONDS), Machine.describe(), command, loadBefore,
        loadAfter, threads, options.ycsbRecords(), seconds,
        redisProgram.map(p -> "(" + p + ")").orElse("(not installed: its columns are empty)"),
        warmLoadRecords(options), seconds));
    report.append("FAWN-KV runs each cell twice: through the front-end (every operation), and"
        + " with reads sent straight to the tail of each key's chain by the ring the client"
        + " follows in ZooKeeper (`FawnKvClient.connectReadingTails`; \"direct\" columns; the"
        + " back-ends run with `fawn.kv.tail-read-lease-ms=1000`), updates through the"
        + " front-end as before.\n\n");
    report.append("| workload | distribution | FAWN-KV ops/s | read p99 | update p99 | direct"
        + " ops/s | direct read p99 | direct update p99 | redis ops/s | redis read p99 | redis"
        + " update p99 | FAWN-KV reads/s ÷ redis | direct reads/s ÷ redis |\n"
        + "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    rows.forEach(r -> report.append(r).append('\n'));
    report.append(String.format(Locale.ROOT, "%nOperations that did not return OK, all FAWN-KV"
        + " runs: %,.0f.%n", notOk));
    report.append("\nCPU time per operation, µs, over each cell (user and system, as the"
        + " operating system counts it per process): YCSB's client JVM, less what one that"
        + " makes no operation uses (its start, with the binding's connections); for FAWN-KV the"
        + " benchmark's JVM (the front-end, with ZooKeeper beside it: idle, but for the"
        + " back-ends' lease renewals and the direct clients' ring watch) and the 4 back-end"
        + " JVMs together; for redis its server. With every process on this machine's cores, a"
        + " system whose operations cost more CPU does fewer of them per second.\n\n"
        + "| workload | distribution | FAWN-KV client | front-end | back-ends | FAWN-KV all |"
        + " direct client | direct front-end | direct back-ends | direct all | redis client |"
        + " redis-server | redis all |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    cpuRows.forEach(r -> report.append(r).append('\n'));
    report.append(perJoule.report()).append('\n');
    if (redisProgram.isPresent()) {
      report.append(String.format(Locale.ROOT, "Targets (issue 32), reads straight to the tails:"
          + " C ≥ 0.8× redis's reads/s — %s (%s); B ≥ 0.5× — %s (%s); CPU per get, all"
          + " processes, ≤ 30 µs — %s (C: %s µs). Through the front-end the lowest ratio of"
          + " reads per second is %.2f, with reads straight to the tails %.2f.%n",
          metOrNot(directRatios, "C", 0.8), ratiosOf(directRatios, "C"),
          metOrNot(directRatios, "B", 0.5), ratiosOf(directRatios, "B"),
          directGetCpu.stream().allMatch(c -> c <= 30) ? "met" : "NOT met",
          directGetCpu.stream().map(c -> String.format(Locale.ROOT, "%.0f", c))
              .collect(Collectors.joining(", ")), worstReadRatio, worstDirectRatio));
    } else {
      report.append("Targets (reads ≥ 0.8× and 0.5× redis's on C and B): not measured,"
          + " redis-server is not installed (`apt-get install redis-server`).\n");
    }
    report.append(etcdPeer.report(etcdProgram));
    System.out.println(report);
    ReportSections.write(Path.of("docs/benchmarks.md"), BEGIN, END,
        BEGIN + "\n" + report + END + "\n");
  }

  private static Map<String, String> common(KvClusterOptions options) {
    Map<String, String> p = new HashMap<>();
    p.put("workload", "site.ycsb.workloads.CoreWorkload");
    p.put("recordcount", Integer.toString(options.ycsbRecords()));
    p.put("operationcount", "1000000000");
    p.put("fieldcount", "10");
    p.put("fieldlength", "100");
    p.put("readallfields", "true");
    p.put("writeallfields", "true");
    p.put("insertproportion", "0");
    p.put("scanproportion", "0");
    p.put("readmodifywriteproportion", "0");
    return p;
  }

  /**
   * The unrecorded load before each system's measured one: other records, after the measured
   * keys (YCSB loads keys {@code insertstart} to {@code insertstart + insertcount - 1}, within
   * {@code recordcount}), so that every JVM's insert path is compiled when the load row is
   * measured, as the workloads' warm-up does for reads and updates.
   */
  private static Map<String, String> warmLoad(KvClusterOptions options) {
    int records = options.ycsbRecords();
    int warm = warmLoadRecords(options);
    return Map.of("recordcount", Integer.toString(records + warm),
        "insertstart", Integer.toString(records), "insertcount", Integer.toString(warm));
  }

  private static int warmLoadRecords(KvClusterOptions options) {
    return Math.max(1_000, options.ycsbRecords() / 4);
  }

  private static Map<String, String> with(Map<String, String> base, Map<String, String> more) {
    Map<String, String> all = new HashMap<>(base);
    all.putAll(more);
    return all;
  }

  /** One row of CPU µs per operation for a cell (redis columns empty without redis). */
  private static String cpuRow(String workload, String distribution, FawnCell fawn,
      FawnCell direct, YcsbRun.Result redis, double redisStartCpu, double redisCpu) {
    String redisCells = "– | – | –";
    if (redis != null) {
      double redisOps = redis.operations();
      double redisClient = redis.clientCpuSeconds() - redisStartCpu;
      redisCells = String.format(Locale.ROOT, "%.0f | %.0f | %.0f",
          1e6 * redisClient / redisOps, 1e6 * redisCpu / redisOps,
          1e6 * (redisClient + redisCpu) / redisOps);
    }
    return String.format(Locale.ROOT, "| %s | %s | %s | %s | %s |", workload, distribution,
        fawn.cpuCells(), direct.cpuCells(), redisCells);
  }

  private static String metOrNot(Map<String, List<Double>> ratios, String workload,
      double target) {
    List<Double> of = ratios.getOrDefault(workload, List.of());
    return !of.isEmpty() && of.stream().allMatch(r -> r >= target) ? "met" : "NOT met";
  }

  private static String ratiosOf(Map<String, List<Double>> ratios, String workload) {
    return ratios.getOrDefault(workload, List.of()).stream()
        .map(r -> String.format(Locale.ROOT, "%.2f", r)).collect(Collectors.joining(", "));
  }

  private static String p99(YcsbRun.Result result, String operation) {
    double p99 = result.get(operation, "99thPercentileLatency(us)");
    return p99 == 0 ? "–" : String.format(Locale.ROOT, "%,.0f", p99);
  }
}

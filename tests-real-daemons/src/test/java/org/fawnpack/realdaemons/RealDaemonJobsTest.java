package org.fawnpack.realdaemons;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.fawnpack.kv.client.FawnKvClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The operator's path on real daemons: render a loopback cluster (a brawny master, three
 * Edisons), validate it, start each daemon in its own JVM in the rendered order with its host's
 * directory, and run every job of fawn-jobs.jar with the rendered client directory (the FAWN-KV
 * ones against a FAWN-KV cluster on loopback), each checked against an answer computed here and
 * the JobHistory server's own counters. Then a NodeManager is killed during a terasort.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RealDaemonJobsTest {
  /** The pack's jobs print "NAME: submitted job_..." (Hadoop's own client "Running job: ..."). */
  private static final Pattern JOB_ID = Pattern.compile(
      "(?:: submitted |Running job: )(job_\\d+_\\d+)");
  private static final String JOB_COUNTER = "org.apache.hadoop.mapreduce.JobCounter";
  private static LoopbackCluster cluster;
  private static FileSystem fs;
  private static TaskMemorySampler memory;

  @BeforeAll
  static void startCluster() throws Exception {
    Path dir = Path.of(System.getProperty("fawn.real-daemons.dir")).toAbsolutePath();
    deleteRecursively(dir);
    Files.createDirectories(dir);
    cluster = new LoopbackCluster(HadoopLayout.fromSystemProperty(), dir,
        Path.of(System.getProperty("fawn.jobs.jar")).toAbsolutePath().normalize());
    Path inventory = dir.resolve("loopback.yaml");
    Files.writeString(inventory, cluster.inventory(
        Path.of(System.getProperty("fawn.energy.collector.jar")).toAbsolutePath().normalize()));
    JavaProcess.Result render = cluster.profile("render", "--inventory", inventory.toString(),
        "--out", cluster.rendered.toString());
    assertEquals(0, render.exitCode(), render.output());
    JavaProcess.Result validate = cluster.profile("validate", cluster.rendered.toString());
    assertEquals(0, validate.exitCode(), validate.output());
    assertTrue(validate.output().contains("4 hosts, 0 errors, 0 warnings"), validate.output());
    memory = new TaskMemorySampler(dir.toString());
    cluster.start(true);
    Configuration client = new Configuration();
    for (String file : new String[] {"core-site.xml", "hdfs-site.xml", "yarn-site.xml",
        "mapred-site.xml"}) {
      client.addResource(new org.apache.hadoop.fs.Path(cluster.clientConf().resolve(file).toUri()));
    }
    fs = FileSystem.get(client);
  }

  @AfterAll
  static void stopCluster() throws Exception {
    if (memory != null) {
      memory.close();
      for (TaskMemorySampler.Peak p : memory.peaks()) {
        System.out.printf("task-memory %s %s -Xmx%dm jvm-peak %d MB tree-peak %d MB%n",
            p.kind(), p.container(), p.xmxMb(), p.jvmPeakKb() / 1024, p.treePeakKb() / 1024);
      }
    }
    if (fs != null) {
      fs.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  /** {@code hadoop jar fawn-jobs.jar ARGS} with the rendered client directory. */
  static JavaProcess.Result hadoopJar(String name, String... args) throws Exception {
    return JavaProcess.run("job-" + name, cluster.layout, cluster.clientConf(), cluster.logs,
        600, "org.apache.hadoop.util.RunJar", jarArgs(args));
  }

  private static String[] jarArgs(String... args) {
    String[] all = new String[args.length + 1];
    all[0] = System.getProperty("fawn.jobs.jar");
    System.arraycopy(args, 0, all, 1, args.length);
    return all;
  }

  /** The last job the command ran. */
  static String jobId(String output) {
    Matcher m = JOB_ID.matcher(output);
    assertTrue(m.find(), "no job id in:\n" + output);
    String id = m.group(1);
    while (m.find()) {
      id = m.group(1);
    }
    return id;
  }

  /**
   * Exit 0; the job SUCCEEDED with no failed task attempt; its AM ran on the master; every task
   * was metered.
   */
  static JobHistory assertSucceededAndMetered(JavaProcess.Result r) throws Exception {
    assertEquals(0, r.exitCode(), r.output());
    JobHistory job = JobHistory.read(jobId(r.output()));
    assertEquals("SUCCEEDED", job.state(), r.output());
    assertTrue(job.amNode().startsWith(LoopbackCluster.MASTER + ":"), job.amNode());
    // A container over its memory is killed by the NodeManager, and its attempt FAILS (killed
    // attempts are speculative duplicates the AM stopped).
    for (String failed : List.of("NUM_FAILED_MAPS", "NUM_FAILED_REDUCES")) {
      assertEquals(0, job.counter(JOB_COUNTER, failed), failed + ": " + r.output());
    }
    assertMetered(job);
    return job;
  }

  static void assertMetered(JobHistory job) {
    assertEquals(job.maps() + job.reduces(), job.counter(JobHistory.ENERGY, "TASKS_METERED"),
        "every task's joules: " + job.counters());
    assertTrue(job.counter(JobHistory.ENERGY, "ENERGY_MILLIJOULES") > 0,
        job.counters().toString());
  }

  /**
   * HDFS places a block's replicas in two boxes: the rendered rack table (Hadoop's own
   * TableMapping in the NameNode) puts 127.0.0.3 in /box1 and .4 and .5 in /box2, so each
   * block written with two replicas must have one in each (HDFS's default policy puts the
   * second replica off the first's rack). Without the table every DataNode is in
   * /default-rack and this fails (it did, before the DataNodes' calls left from their own
   * addresses: the NameNode knew all three as 127.0.0.1). The ResourceManager places each
   * NodeManager by the same table.
   */
  @Test
  @Order(0)
  void hdfs_replicasOfEveryBlock_spanTwoBoxes() throws Exception {
    org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path("/racks/file");
    long block = 1024 * 1024;
    try (var out = fs.create(file, true, 64 * 1024, (short) 2, block)) {
      out.write(new byte[(int) (6 * block)]);
    }
    org.apache.hadoop.fs.BlockLocation[] blocks = fs.getFileBlockLocations(
        fs.getFileStatus(file), 0, 6 * block);
    assertEquals(6, blocks.length);
    for (org.apache.hadoop.fs.BlockLocation b : blocks) {
      List<String> racks = new ArrayList<>();
      for (String path : b.getTopologyPaths()) {
        racks.add(path.substring(0, path.lastIndexOf('/')));
      }
      assertEquals(List.of("/box1", "/box2"), racks.stream().sorted().toList(),
          "block at " + b.getOffset() + ": " + List.of(b.getTopologyPaths()));
    }
    // The ResourceManager reads the same table: each NodeManager in its host's box.
    JsonNode nodes = new ObjectMapper().readTree(LoopbackCluster.get("http://"
        + LoopbackCluster.MASTER + ":8088/ws/v1/cluster/nodes")).path("nodes").path("node");
    Map<String, String> racksOfNodes = new TreeMap<>();
    for (JsonNode node : nodes) {
      racksOfNodes.put(node.path("nodeHostName").asText(), node.path("rack").asText());
    }
    assertEquals(new TreeMap<>(LoopbackCluster.BOXES), racksOfNodes);
  }

  @Test
  @Order(1)
  void wordcount2_runsWithTheRenderedDirectoriesAlone() throws Exception {
    Map<String, Long> expected = Inputs.text(fs, "/in/text", 24, 150);
    assertSucceededAndMetered(hadoopJar("wordcount2", "wordcount2", "/in/text", "/out/wc2"));
    assertEquals(expected, Inputs.counts(fs, "/out/wc2"));
  }

  @Test
  @Order(2)
  void wordcount_sameCounts() throws Exception {
    Map<String, Long> expected = Inputs.text(fs, "/in/text-b", 6, 150);
    assertSucceededAndMetered(hadoopJar("wordcount", "wordcount", "/in/text-b", "/out/wc"));
    assertEquals(expected, Inputs.counts(fs, "/out/wc"));
  }

  @Test
  @Order(3)
  void logcountAndLogcount2_countTheLogLines() throws Exception {
    Map<String, Long> expected = Inputs.logs(fs, "/in/logs", 8, 300);
    assertSucceededAndMetered(hadoopJar("logcount", "logcount", "/in/logs", "/out/lc"));
    assertEquals(expected, Inputs.counts(fs, "/out/lc"));
    assertSucceededAndMetered(hadoopJar("logcount2", "logcount2", "/in/logs", "/out/lc2"));
    assertEquals(expected, Inputs.counts(fs, "/out/lc2"));
  }

  @Test
  @Order(4)
  void teragenTerasortTeravalidate_sortEveryRow() throws Exception {
    long rows = 100_000;
    assertSucceededAndMetered(hadoopJar("teragen", "teragen", Long.toString(rows), "/tera/in"));
    assertEquals(rows * 100, fs.getContentSummary(new org.apache.hadoop.fs.Path("/tera/in"))
        .getLength());
    assertSucceededAndMetered(hadoopJar("terasort", "terasort", "/tera/in", "/tera/out"));
    assertEquals(rows, sortedRows("/tera/out"));
    assertSucceededAndMetered(hadoopJar("teravalidate", "teravalidate", "--rows",
        Long.toString(rows), "/tera/out", "/tera/report"));
  }

  @Test
  @Order(5)
  void pi_countsEveryPoint() throws Exception {
    JobHistory job = assertSucceededAndMetered(hadoopJar("pi", "pi", "3", "200000"));
    assertEquals(600_000, job.counter("org.fawnpack.jobs.pi.PiCounter", "SAMPLES"));
  }

  @Test
  @Order(6)
  void md5genAndMd5search_findTheValue() throws Exception {
    int bits = 12;
    long value = 2718;
    assertSucceededAndMetered(hadoopJar("md5gen", "md5gen", "--bits", Integer.toString(bits),
        "/md5/in"));
    String target = md5(value);
    List<Long> preimages = new ArrayList<>();
    for (long v = 0; v < 1L << bits; v++) {
      if (md5(v).equals(target)) {
        preimages.add(v);
      }
    }
    assertSucceededAndMetered(hadoopJar("md5search", "md5search", "--bits",
        Integer.toString(bits), "--target", target, "/md5/in", "/md5/out"));
    List<Long> found = Inputs.lines(fs, "/md5/out").stream()
        .map(l -> Long.parseLong(l.substring(0, l.indexOf('\t')))).toList();
    assertEquals(preimages, found);
  }

  /**
   * kvload, kvcount and kvexport against a FAWN-KV cluster on loopback (ZooKeeper in this JVM,
   * three back-ends as child JVMs on 127.0.0.1-3, a front-end here), named to the jobs with -D
   * as an operator would: the tasks on the slaves reach it with the cluster secret carried in
   * the job's credentials. A client reads every loaded key back; kvcount's and kvexport's
   * outputs are checked against what the test wrote.
   */
  @Test
  @Order(7)
  void kvloadKvcountKvexport_roundTripThroughAFawnKvCluster() throws Exception {
    try (org.fawnpack.kv.loopback.LoopbackCluster kv = org.fawnpack.kv.loopback.LoopbackCluster.start(
        cluster.dir.resolve("fawn-kv"), 3, 1, Map.of())) {
      Map<String, String> written = Inputs.keyValues(fs, "/kv/in", 4, 500);
      String[] store = {"-Dfawn.kv.zookeeper.quorum=" + kv.zooKeeperQuorum(),
          "-Dfawn.kv.secret-file=" + kv.secretFile()};
      assertSucceededAndMetered(hadoopJar("kvload", concat("kvload", store, "/kv/in")));
      try (FawnKvClient client = FawnKvClient.connect(kv.frontEndAddresses(),
          Duration.ofSeconds(30), kv.secret())) {
        for (Map.Entry<String, String> e : written.entrySet()) {
          byte[] value = client.get(e.getKey().getBytes(StandardCharsets.UTF_8));
          assertEquals(e.getValue(), value == null ? null
              : new String(value, StandardCharsets.UTF_8), e.getKey());
        }
      }
      assertSucceededAndMetered(hadoopJar("kvcount", concat("kvcount", store, "/kv/counts")));
      assertEquals(Inputs.prefixCounts(written),
          Inputs.lines(fs, "/kv/counts").stream().sorted().toList());
      assertSucceededAndMetered(hadoopJar("kvexport",
          concat("kvexport", store, "--text", "/kv/export")));
      Map<String, String> exported = new TreeMap<>();
      for (String line : Inputs.lines(fs, "/kv/export")) {
        int tab = line.indexOf('\t');
        assertEquals(null, exported.put(line.substring(0, tab), line.substring(tab + 1)),
            "exported twice: " + line);
      }
      assertEquals(written, exported);
    }
  }

  private static String[] concat(String job, String[] options, String... args) {
    List<String> all = new ArrayList<>(List.of(job));
    all.addAll(List.of(options));
    all.addAll(List.of(args));
    return all.toArray(String[]::new);
  }

  /**
   * Not a check: measures what a task and an AM JVM hold besides their heaps (run with
   * -Dfawn.real-daemons.measure=true; docs/profiles.md has the figures). Each JVM touches its
   * whole heap at start (AlwaysPreTouch), so its peak resident set less -Xmx is the rest; the
   * containers are made large enough that the NodeManager does not kill them meanwhile.
   */
  @Test
  @Order(9)
  @org.junit.jupiter.api.condition.EnabledIfSystemProperty(named = "fawn.real-daemons.measure",
      matches = "true")
  void taskJvms_nonHeapMemory_measured() throws Exception {
    String[] flags = System.getProperty("fawn.real-daemons.measure-flags",
        "-XX:+UseSerialGC;").split(";", -1);
    for (String gc : flags) {
      String touch = " -XX:+AlwaysPreTouch " + gc;
      memory.clear();
      String out = "/measure/wc2" + gc.replaceAll("[^A-Za-z0-9]", "");
      List<String> args = List.of("-Dmapreduce.map.memory.mb=450",
          "-Dmapreduce.map.java.opts=-Xmx140m" + touch, "-Dmapreduce.reduce.memory.mb=600",
          "-Dmapreduce.reduce.java.opts=-Xmx260m" + touch,
          "-Dyarn.app.mapreduce.am.resource.mb=1000",
          "-Dyarn.app.mapreduce.am.command-opts=-Xmx400m" + touch);
      List<String> wc = new ArrayList<>(List.of("wordcount2"));
      wc.addAll(args);
      wc.addAll(List.of("/in/text", out));
      assertSucceededAndMetered(hadoopJar("measure-wc2", wc.toArray(String[]::new)));
      List<String> sort = new ArrayList<>(List.of("terasort"));
      sort.addAll(args);
      sort.addAll(List.of("/tera/in", out + "-sort"));
      assertSucceededAndMetered(hadoopJar("measure-terasort", sort.toArray(String[]::new)));
      for (String kind : List.of("task", "am")) {
        List<TaskMemorySampler.Peak> peaks = memory.peaks().stream()
            .filter(p -> p.kind().equals(kind)).toList();
        System.out.printf("non-heap %s JVMs (%s): %s MB over %d JVMs; container trees exceed"
            + " their JVM by up to %d MB%n", kind, gc.isEmpty() ? "JVM's default GC" : gc,
            peaks.stream().map(p -> Long.toString(p.nonHeapMb())).sorted().toList(),
            peaks.size(), peaks.stream().mapToLong(p -> (p.treePeakKb() - p.jvmPeakKb()) / 1024)
                .max().orElse(-1));
      }
    }
  }

  /** A slave's NodeManager killed (SIGKILL) mid-terasort and started again 10 s later. */
  @Test
  @Order(8)
  void nodeManagerRestart_losesNoJobAndNoTasksJoules() throws Exception {
    long rows = 300_000;
    assertSucceededAndMetered(hadoopJar("teragen-restart", "teragen", Long.toString(rows),
        "/tera/in2"));
    String victim = LoopbackCluster.SLAVES.get(1);
    JavaProcess job = JavaProcess.start("job-terasort-restart", cluster.layout,
        cluster.clientConf(), cluster.logs, "512m", "org.apache.hadoop.util.RunJar",
        jarArgs("terasort", "/tera/in2", "/tera/out2"));
    awaitRunningContainer(victim, job);
    cluster.daemonOf(victim, "nodemanager").kill();
    TimeUnit.SECONDS.sleep(10);
    cluster.daemon(victim, "nodemanager", "256m",
        "org.apache.hadoop.yarn.server.nodemanager.NodeManager");
    assertTrue(job.waitFor(600), "terasort did not end in 10 minutes");
    assertEquals(0, job.exitCode(), job.output());
    JobHistory history = JobHistory.read(jobId(job.output()));
    assertEquals("SUCCEEDED", history.state(), job.output());
    assertMetered(history);
    assertEquals(rows, sortedRows("/tera/out2"));
  }

  /**
   * Waits (at most 3 min) until containers run on {@code host}'s NodeManager and each has written
   * its pid file: a NodeManager killed before that cannot find the process again when it
   * recovers (Hadoop then reports the container lost and the AM runs the task again).
   */
  private static void awaitRunningContainer(String host, JavaProcess job) throws Exception {
    String url = "http://" + host + ":8042/ws/v1/node/containers";
    Path nmPrivate = cluster.dir.resolve("data").resolve(host).resolve("disk1/yarn/local/nmPrivate");
    for (int i = 0; i < 900; i++) {
      assertTrue(job.isAlive(), "the job ended before a container ran on " + host + ":\n"
          + job.output());
      List<String> running = new ArrayList<>();
      try {
        JsonNode containers = new ObjectMapper().readTree(LoopbackCluster.get(url))
            .path("containers").path("container");
        for (JsonNode c : containers.isArray() ? containers : List.of(containers)) {
          if ("RUNNING".equals(c.path("state").asText())) {
            running.add(c.path("id").asText());
          }
        }
      } catch (IOException e) {
        // the web server is not up yet
      }
      if (!running.isEmpty() && running.stream().allMatch(id -> hasPidFile(nmPrivate, id))) {
        return;
      }
      Thread.sleep(200);
    }
    throw new AssertionError("no container ran on " + host + " within 3 minutes");
  }

  private static boolean hasPidFile(Path nmPrivate, String containerId) {
    try (var files = Files.walk(nmPrivate)) {
      return files.anyMatch(f -> f.getFileName().toString().equals(containerId + ".pid"));
    } catch (IOException e) {
      return false;
    }
  }

  /** Rows of a terasort output, checked in order across its part files (unsigned keys). */
  private static long sortedRows(String dir) throws IOException {
    byte[] previous = null;
    long rows = 0;
    byte[] record = new byte[100];
    for (FileStatus part : Inputs.parts(fs, dir)) {
      try (InputStream in = fs.open(part.getPath())) {
        while (in.readNBytes(record, 0, 100) == 100) {
          byte[] key = java.util.Arrays.copyOf(record, 10);
          assertTrue(previous == null || java.util.Arrays.compareUnsigned(previous, key) <= 0,
              "misordered at row " + rows + " of " + part.getPath());
          previous = key;
          rows++;
        }
      }
    }
    return rows;
  }

  /** MD5 of a value's 4 big-endian bytes, as md5gen writes values. */
  private static String md5(long value) throws Exception {
    byte[] bytes = {(byte) (value >>> 24), (byte) (value >>> 16), (byte) (value >>> 8),
        (byte) value};
    return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(bytes));
  }

  static void deleteRecursively(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (var paths = Files.walk(dir)) {
      for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}

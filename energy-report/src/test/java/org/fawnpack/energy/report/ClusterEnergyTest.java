package org.fawnpack.energy.report;

import static org.fawnpack.energy.report.Fixtures.JOB_ID;
import static org.fawnpack.energy.report.Fixtures.T0;
import static org.fawnpack.energy.report.ReportText.number;
import static org.fawnpack.energy.report.ReportText.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.ToolRunner;
import org.fawnpack.energy.report.ClusterEnergy.Coverage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job's cluster energy from the nodes' own histories, against sums worked out by hand here.
 * The job (Fixtures) runs T0 to T0 + 100 s and read 3,000,000 records with 1,500 J of tasks.
 * Node segments, one sample every 10 s:
 * <ul>
 *   <li>nodeA: 20 W (200 J a sample, 100 J of it to containers), T0 - 5 s to T0 + 105 s in two
 *       segments: 10 samples in the span, 2,000 J, 1,000 J attributed; whole;
 *   <li>nodeB: idle, 10 W, T0 + 5 s to T0 + 105 s: 1,000 J; whole;
 *   <li>nodeC: 10 W, T0 + 5 s to T0 + 45 s, then nothing (long overdue): 500 J; partial;
 *   <li>nodeD: 10 W, T0 - 200 s to T0 - 100 s: not running during the job; left out;
 *   <li>master0, role=master: 52 W over the whole span, 5,200 J: shown apart, not counted.
 * </ul>
 * Cluster: 3,500 J; idle share 1 - 1,000 / 3,500; work/J 3,000,000 / 3,500.
 */
class ClusterEnergyTest {
  private static final double EPS = 1e-6;

  @TempDir
  Path tmp;
  private FakeJobHistoryServer jhs;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();

  @BeforeEach
  void start() throws IOException {
    jhs = new FakeJobHistoryServer();
    Fixtures.serve(jhs);
  }

  @AfterEach
  void stop() {
    jhs.close();
  }

  private static String segment(String node, long fromSeconds, long toSeconds, double watts,
      double attributedJoules) {
    StringBuilder s = new StringBuilder("# fawn-energy node history v1\n# node=" + node
        + " role=" + (node.startsWith("master") ? "master" : "slave")
        + " interval_ms=10000 roll_ms=60000 meters=model:model estimated=true\n");
    for (long t = fromSeconds; t <= toSeconds; t += 10) {
      // CPU as busy as the node's power above 10 W says, memory 100 MB + t KB, 1 MB read
      // and 2 MB written, 3 MB in and 4 MB out each interval.
      s.append(String.format(Locale.ROOT, "sample,%d,%.4f,%d,%d,0,%.1f,%d,%d,%d,%d,%d%n",
          T0 + t * 1000, watts, Math.round(watts * 10 * 1e6), Math.round(attributedJoules * 1e6),
          (watts - 10) * 10, 100_000_000 + t * 1000, 1_000_000, 2_000_000, 3_000_000,
          4_000_000));
    }
    return s.toString();
  }

  private void write(String node, long fromSeconds, long toSeconds, double watts,
      double attributedJoules) throws IOException {
    Path dir = tmp.resolve("history").resolve("nodes").resolve(node);
    Files.createDirectories(dir);
    Files.writeString(dir.resolve(String.format(Locale.ROOT, "%013d.csv",
        T0 + fromSeconds * 1000)), segment(node, fromSeconds, toSeconds, watts,
        attributedJoules), StandardCharsets.UTF_8);
  }

  private void writeCluster() throws IOException {
    write("nodeA", -5, 45, 20, 100);
    write("nodeA", 55, 105, 20, 100);
    write("nodeB", 5, 105, 10, 0);
    write("nodeC", 5, 45, 10, 0);
    write("nodeD", -200, -100, 10, 0);
    write("master0", -5, 105, 52, 0); // the brawny master: shown apart, 10 samples x 520 J
  }

  private String report(String... more) throws Exception {
    Fixtures.writeHistory(tmp.resolve("history"), false);
    EnergyReport tool = new EnergyReport(new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    List<String> args = new java.util.ArrayList<>(List.of("report", JOB_ID, "--jhs",
        jhs.address(), "--history-dir", tmp.resolve("history").toUri().toString()));
    args.addAll(List.of(more));
    assertEquals(0, ToolRunner.run(new Configuration(), tool, args.toArray(new String[0])));
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  void html_everyCountedNode_powerAndUtilisationPanels_withPhaseBands() throws Exception {
    writeCluster();
    Path html = tmp.resolve("report.html");
    report("--html", html.toString());
    String page = Files.readString(html);
    List<String> charted = new java.util.ArrayList<>();
    java.util.regex.Matcher svg = java.util.regex.Pattern.compile(
        "<svg class=\"chart utilisation\"[^>]*data-node=\"([^\"]+)\">(.*?)</svg>",
        java.util.regex.Pattern.DOTALL).matcher(page);
    while (svg.find()) {
      charted.add(svg.group(1));
      String body = svg.group(2);
      for (String panel : List.of("use-power", "use-cpu", "use-mem", "use-disk", "use-net")) {
        assertTrue(body.contains("<polyline class=\"" + panel + "\""), svg.group(1) + " "
            + panel);
      }
      for (String band : List.of("map", "shuffle", "reduce")) {
        assertEquals(5, body.split("class=\"phase " + band + "\"", -1).length - 1,
            band + " band in each of the 5 panels");
      }
      if (svg.group(1).equals("nodeA")) {
        // 10 samples in the span: each panel's line has 10 points.
        java.util.regex.Matcher cpu = java.util.regex.Pattern.compile(
            "<polyline class=\"use-cpu\"[^>]*points=\"([^\"]*)\"").matcher(body);
        assertTrue(cpu.find());
        assertEquals(10, cpu.group(1).trim().split(" ").length);
      }
    }
    assertEquals(List.of("master0", "nodeA", "nodeB", "nodeC"), charted,
        "every counted node, the master too; not the node left out");
  }

  @Test
  void json_theSameFigures_readByAnIndependentParser() throws Exception {
    writeCluster();
    Path json = tmp.resolve("report.json");
    report("--json", json.toString());
    com.fasterxml.jackson.databind.JsonNode root = new com.fasterxml.jackson.databind
        .ObjectMapper().readTree(json.toFile());
    assertEquals(JOB_ID, root.get("jobId").asText());
    assertEquals(1500.0, root.get("tasks").get("joules").asDouble(), EPS);
    com.fasterxml.jackson.databind.JsonNode cluster = root.get("cluster");
    assertEquals(3500.0, cluster.get("joules").asDouble(), EPS);
    assertEquals(3, cluster.get("slaves").asInt());
    assertEquals(5200.0, cluster.get("masterJoules").asDouble(), EPS);
    assertEquals(3_000_000 / 3500.0, cluster.get("workPerJoule").asDouble(), 1e-6);
    assertEquals(1 - 1000.0 / 3500, cluster.get("idleShare").asDouble(), 1e-9);
    assertEquals("nodeD", cluster.get("absent").get(0).asText());
    com.fasterxml.jackson.databind.JsonNode nodeA = null;
    for (com.fasterxml.jackson.databind.JsonNode n : cluster.get("nodes")) {
      nodeA = n.get("node").asText().equals("nodeA") ? n : nodeA;
    }
    assertEquals("slave", nodeA.get("role").asText());
    assertEquals("whole", nodeA.get("coverage").asText());
    assertEquals(100.0, nodeA.get("meanCpuPercent").asDouble(), EPS);
    assertEquals(10_000_000L, nodeA.get("diskReadBytes").asLong());
    assertEquals(Fixtures.JOB_NAME, root.get("name").asText(), "quotes and <, & escaped");
  }

  @Test
  void report_sumsEveryNodeOverTheSpan_busyOrIdle_andSaysWhichNodesItCovers() throws Exception {
    writeCluster();
    String text = report();
    assertEquals(3500.0, number(text, "cluster energy", "J"), EPS, text);
    assertEquals(3_000_000 / 3500.0, number(text, "cluster work/J", "input records/J"), 1e-3);
    assertTrue(value(text, "cluster idle share").startsWith(String.format(Locale.ROOT,
        "%.1f %%", (1 - 1000.0 / 3500) * 100)), text);
    assertTrue(value(text, "tasks' share").startsWith(String.format(Locale.ROOT, "%.1f %%",
        1500.0 / 3500 * 100)), text);
    assertEquals("3 of 4 cover the whole span; partly covered: nodeC; left out (not running"
        + " during the job): nodeD", value(text, "nodes covered"));
    assertEquals(5200.0, number(text, "master energy", "J"), EPS, text);
    assertTrue(text.contains("3 slaves, job span"), text);
    assertTrue(number(text, "task energy", "J") <= number(text, "cluster energy", "J"));

    // Per node over the span: nodeA's 10 samples (T0 + 5 s to T0 + 95 s), 100 % CPU at 20 W.
    String nodeA = text.substring(text.indexOf("Per node (cluster, job span)")).lines()
        .filter(l -> l.trim().startsWith("nodeA ")).findFirst().orElseThrow();
    assertEquals(List.of("nodeA", "whole", "2000.000", "20.000", "100.0",
        String.format(Locale.ROOT, "%.1f", (100_000_000 + 95 * 1000) / 1e6), "10.0", "20.0",
        "30.0", "40.0"), List.of(nodeA.trim().split(" +")));
  }

  @Test
  void report_noNodeHistories_saysWhereItLooked() throws Exception {
    String text = report();
    assertTrue(value(text, "cluster energy").startsWith("n/a (no node history in file:"), text);
  }

  @Test
  void report_damagedSegment_namesFileAndLine() throws Exception {
    writeCluster();
    Path bad = tmp.resolve("history/nodes/nodeB").resolve(String.format(Locale.ROOT,
        "%013d.csv", T0 + 5000));
    Files.writeString(bad, segment("nodeB", 5, 25, 10, 0) + "sample,1,2,3,4,0\n",
        StandardCharsets.UTF_8);
    String text = report();
    assertTrue(value(text, "cluster energy").contains(bad.getFileName() + ":6: damaged"),
        text);
  }

  @Test
  void coverage_pendingWhenTheNextSegmentIsNotDue_missingWhenAJobNodeWroteNone() {
    NodeSegmentReader.NodeSeries early = new NodeSegmentReader.NodeSeries("nodeE", false, 10_000,
        60_000, null, false, List.of(new NodeSegmentReader.NodeSample(T0 + 40_000, 10,
            100_000_000, 0, false, 5, 1, 1, 1, 1, 1)));
    long finish = T0 + 100_000;
    ClusterEnergy soon = ClusterEnergy.of(List.of(early), T0, finish, finish + 5_000,
        List.of("nodeE", "nodeZ"));
    assertEquals(List.of("nodeE"), soon.named(Coverage.PENDING));
    assertEquals(List.of("nodeZ"), soon.missing());
    ClusterEnergy later = ClusterEnergy.of(List.of(early), T0, finish, finish + 600_000,
        List.of("nodeE"));
    assertEquals(List.of("nodeE"), later.named(Coverage.PARTIAL), "overdue: partial for good");
    assertTrue(ClusterRows.coverage(soon).contains("MISSING (ran the job's containers, wrote"
        + " no node history: not counted): nodeZ"), ClusterRows.coverage(soon));
  }
}

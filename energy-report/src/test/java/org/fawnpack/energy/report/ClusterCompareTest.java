package org.fawnpack.energy.report;

import static org.fawnpack.energy.report.Fixtures.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fawn energy compare} over two clusters, each a real HTTP server in the JobHistory
 * server's shapes with node histories on local disk, each named by a configuration directory of
 * its own. The cells are checked against sums worked out here: a node sample every 10 s, each
 * sample ending in a job's span counted (both ends included), every job 3,000,000 records.
 * <ul>
 *   <li>edison: 3 nodes at 1.5 W (15 J a sample); wordcount 300 s (31 samples a node: 1,395 J),
 *       wordcount2 twice, 100 s (495 J) and 120 s (585 J);
 *   <li>dell: 1 node at 100 W (1,000 J a sample); wordcount 200 s (21,000 J), wordcount2 50 s
 *       (6,000 J).
 * </ul>
 */
class ClusterCompareTest {
  @TempDir
  Path tmp;
  private final List<FakeJobHistoryServer> servers = new ArrayList<>();
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  @AfterEach
  void stop() {
    servers.forEach(FakeJobHistoryServer::close);
  }

  private static String jobId(int n) {
    return "job_1700000000000_000" + n;
  }

  /** A cluster: its JobHistory server, node histories and client configuration directory. */
  private Path cluster(String name, int nodes, double watts, long[][] jobs, String[] names)
      throws IOException {
    FakeJobHistoryServer jhs = new FakeJobHistoryServer();
    servers.add(jhs);
    for (int i = 0; i < jobs.length; i++) {
      String id = jobId((int) jobs[i][0]);
      long start = T0 + jobs[i][1] * 1000;
      long finish = start + jobs[i][2] * 1000;
      String json = Fixtures.jobJson().replace(Fixtures.JOB_ID, id)
          .replace("\"startTime\":" + T0, "\"startTime\":" + start)
          .replace("\"finishTime\":" + (T0 + 100_000), "\"finishTime\":" + finish)
          .replace("grep <logs> & 'count' \\\"now\\\"", names[i]);
      jhs.job(id, json, Fixtures.countersJson().replace(Fixtures.JOB_ID, id),
          Fixtures.tasksJson());
    }
    Path history = tmp.resolve(name + "-history");
    for (int n = 0; n < nodes; n++) {
      Path dir = history.resolve("nodes").resolve(name + "-" + n);
      Files.createDirectories(dir);
      StringBuilder s = new StringBuilder("# fawn-energy node history v1\n# node=" + name + "-"
          + n + " interval_ms=10000 roll_ms=60000 meters=m:model estimated=false\n");
      for (long t = -10; t <= 1000; t += 10) {
        s.append(String.format(Locale.ROOT, "sample,%d,%.4f,%d,0,0,-1,-1,-1,-1,-1,-1%n",
            T0 + t * 1000, watts, Math.round(watts * 10 * 1e6)));
      }
      Files.writeString(dir.resolve(String.format(Locale.ROOT, "%013d.csv", T0 - 10_000)),
          s.toString(), StandardCharsets.UTF_8);
    }
    Path conf = tmp.resolve(name + "-conf");
    Files.createDirectories(conf);
    Files.writeString(conf.resolve("core-site.xml"), site("fs.defaultFS", "file:///",
        "fawn.energy.history.dir", history.toUri().toString()));
    Files.writeString(conf.resolve("mapred-site.xml"), site(
        "mapreduce.jobhistory.webapp.address", jhs.address()));
    return conf;
  }

  private static String site(String... keyValues) {
    StringBuilder s = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
    for (int i = 0; i < keyValues.length; i += 2) {
      s.append("<property><name>").append(keyValues[i]).append("</name><value>")
          .append(keyValues[i + 1]).append("</value></property>\n");
    }
    return s.append("</configuration>\n").toString();
  }

  private int run(String... args) throws Exception {
    EnergyReport tool = new EnergyReport(new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    return ToolRunner.run(new Configuration(), tool, args);
  }

  /** The cells of the first table row for a job on a cluster, split at runs of spaces. */
  private List<String> row(String job, String cluster) {
    for (String line : out.toString(StandardCharsets.UTF_8).lines().toList()) {
      List<String> cells = Arrays.asList(line.trim().split(" {2,}| (?=[0-9])"));
      if (line.startsWith(job + " ") && cells.contains(cluster)) {
        return cells;
      }
    }
    throw new AssertionError("no row " + job + " " + cluster + " in\n" + out);
  }

  private static String f(String format, double v) {
    return String.format(Locale.ROOT, format, v);
  }

  @Test
  void compare_tableEightLayout_againstHandSums() throws Exception {
    Path edison = cluster("edison", 3, 1.5, new long[][] {{1, 0, 300}, {2, 400, 100},
        {3, 600, 120}}, new String[] {"wordcount", "wordcount2", "wordcount2"});
    Path dell = cluster("dell", 1, 100, new long[][] {{1, 0, 200}, {2, 400, 50}},
        new String[] {"wordcount", "wordcount2"});
    int rc = run("compare", "--cluster", "edison=" + edison, jobId(1), jobId(2), jobId(3),
        "--cluster", "dell=" + dell, jobId(1), jobId(2));
    assertEquals(0, rc, err.toString(StandardCharsets.UTF_8));
    String text = out.toString(StandardCharsets.UTF_8);

    String eWordcount = text.lines().filter(l -> l.startsWith("wordcount ")
        && l.contains("edison")).findFirst().orElseThrow();
    assertTrue(eWordcount.contains(" 300.0 ") && eWordcount.contains(" 1,395.00 ")
        && eWordcount.contains(f("%,.1f", 3e6 / 1395)) && eWordcount.contains("base"), text);
    String dWordcount = text.lines().filter(l -> l.startsWith("wordcount ")
        && l.contains("dell")).findFirst().orElseThrow();
    assertTrue(dWordcount.contains(" 200.0 ") && dWordcount.contains(" 21,000.00 ")
        && dWordcount.contains(f("%,.1f", 3e6 / 21_000)), text);
    assertTrue(dWordcount.contains(f("%.2fx", 200 / 300.0))
        && dWordcount.contains(f("%.2fx", 21_000 / 1395.0))
        && dWordcount.contains(f("%.2fx", (3e6 / 21_000) / (3e6 / 1395))), dWordcount);

    // Two runs on edison: mean ± sample standard deviation.
    String eTwin = text.lines().filter(l -> l.startsWith("wordcount2 ")
        && l.contains("edison") && l.contains("±")).findFirst().orElseThrow();
    double sdSeconds = Math.sqrt(2 * 10 * 10);
    double meanJ = (495 + 585) / 2.0;
    double sdJ = Math.sqrt(2 * 45 * 45);
    assertTrue(eTwin.contains("110.0 ± " + f("%.1f", sdSeconds)), eTwin);
    assertTrue(eTwin.contains(f("%,.2f", meanJ) + " ± " + f("%.2f", sdJ)), eTwin);
    double perJoule = (3e6 / 495 + 3e6 / 585) / 2;
    assertTrue(eTwin.contains(f("%,.1f", perJoule)), eTwin);

    // Within each cluster, the optimised job against its baseline.
    String pairs = text.substring(text.indexOf("Optimised against its baseline"));
    String ePair = pairs.lines().filter(l -> l.startsWith("wordcount2") && l.contains("edison"))
        .findFirst().orElseThrow();
    assertTrue(ePair.contains(f("%.2fx", 110 / 300.0)) && ePair.contains(f("%.2fx",
        meanJ / 1395)) && ePair.contains(f("%.2fx", perJoule / (3e6 / 1395))), ePair);
    String dPair = pairs.lines().filter(l -> l.startsWith("wordcount2") && l.contains("dell"))
        .findFirst().orElseThrow();
    assertTrue(dPair.contains(f("%.2fx", 50 / 200.0)) && dPair.contains(f("%.2fx",
        6000 / 21_000.0)), dPair);
  }

  @Test
  void compare_eachClustersFigures_areItsOwnReports() throws Exception {
    Path edison = cluster("edison", 3, 1.5, new long[][] {{1, 0, 300}},
        new String[] {"wordcount"});
    Path dell = cluster("dell", 1, 100, new long[][] {{1, 0, 200}}, new String[] {"wordcount"});
    for (Path dir : List.of(edison, dell)) {
      EnergyReportModel own = EnergyReport.report(ClusterCompareCommand.clientConf(dir.toFile()),
          jobId(1));
      assertTrue(own.cluster().energy() != null, own.cluster().problem());
    }
    double edisonJ = EnergyReport.report(ClusterCompareCommand.clientConf(edison.toFile()),
        jobId(1)).cluster().energy().joules();
    assertEquals(1395.0, edisonJ, 1e-9, "one cluster's report: 3 nodes x 31 samples x 15 J");
    Path page = tmp.resolve("compare.html");
    assertEquals(0, run("compare", "--cluster", "edison=" + edison, jobId(1), "--cluster",
        "dell=" + dell, jobId(1), "--html", page.toString()));
    assertTrue(out.toString(StandardCharsets.UTF_8).contains(" 1,395.00 "));
    String html = Files.readString(page);
    assertTrue(html.contains("1,395.00 J (base)"), html);
    assertTrue(html.contains("21,000.00 J (" + f("%.2fx", 21_000 / 1395.0) + ")"), html);
    assertTrue(html.startsWith("<!DOCTYPE html>") && !html.contains("<script"));
  }

  @Test
  void compare_badArguments_usageAndExitTwo() throws Exception {
    Path edison = cluster("edison", 1, 1.5, new long[][] {{1, 0, 300}},
        new String[] {"wordcount"});
    assertEquals(2, run("compare", "--cluster", "edison=" + edison, jobId(1)));
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("at least two --cluster"));
    err.reset();
    assertEquals(2, run("compare", "--cluster", "edison=" + edison, jobId(1), "--cluster",
        "dell=" + tmp.resolve("nowhere"), jobId(1)));
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("is not a directory"), err.toString());
    err.reset();
    assertEquals(2, run("compare", jobId(1), "--cluster", "edison=" + edison));
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("before any --cluster"));
    err.reset();
    assertEquals(2, run("compare", "--cluster", "edison=" + edison, "--cluster",
        "dell=" + edison, jobId(1)));
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("cluster edison has no job id"));
  }
}

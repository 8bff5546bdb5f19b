package org.fawnpack.energy.report;

import static org.fawnpack.energy.report.Fixtures.APP_ID;
import static org.fawnpack.energy.report.Fixtures.JOB_ID;
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
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.fawnpack.energy.EnergyKeys;

/** The whole tool: a real HTTP server in the JobHistory server's shapes, files on local disk. */
class EnergyReportTest {
  private static final double EPS = 1e-9;

  @TempDir
  Path tmp;
  private FakeJobHistoryServer jhs;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  @BeforeEach
  void start() throws IOException {
    jhs = new FakeJobHistoryServer();
    Fixtures.serve(jhs);
  }

  @AfterEach
  void stop() {
    jhs.close();
  }

  private int run(String... args) throws Exception {
    EnergyReport tool = new EnergyReport(new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    return ToolRunner.run(new Configuration(), tool, args);
  }

  private String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  private String historyUri() {
    return tmp.resolve("history").toUri().toString(); // file:///...
  }

  @Test
  void run_job_printsReportAndWritesHtml() throws Exception {
    Fixtures.writeHistory(tmp.resolve("history"), false);
    Path html = tmp.resolve("out.html");
    int rc = run("report", JOB_ID, "--jhs", jhs.address(), "--history-dir", historyUri(),
        "--html", html.toString());
    assertEquals(0, rc, err());
    String text = out();
    assertEquals(1500.0, number(text, "task energy", "J"), EPS);
    assertEquals(5000.0, number(text, "node energy", "J"), EPS);
    assertEquals(50.0, number(text, "average power", "W"), EPS);
    assertEquals(1520.0, number(text, "application energy", "J"), EPS);
    assertEquals(2000.0, number(text, "work/J", "input records/J"), EPS);
    assertEquals(100_000.0, number(text, "bytes/J", "B/J"), EPS);
    assertEquals("2 (4 containers recorded)", value(text, "nodes with history"));
    assertTrue(value(text, "history directory").startsWith("file:/"), text);
    assertTrue(value(text, "history directory").endsWith("/history/" + APP_ID), text);
    assertTrue(text.endsWith("HTML report: " + html + "\n"), text);
    String page = Files.readString(html);
    assertEquals(2, page.split("<polyline class=\"power\"", -1).length - 1);
    assertEquals(2, page.split("<rect class=\"phase map\"", -1).length - 1);
    assertEquals("", err());
    System.out.println(text); // the example in docs/energy-report.md
  }

  @Test
  void run_genericOptions_serverAndDirectoryTaken() throws Exception {
    Fixtures.writeHistory(tmp.resolve("history"), true);
    int rc = run("-D", JobHistoryClient.WEBAPP_ADDRESS + "=" + jhs.address(),
        "-D", EnergyKeys.HISTORY_DIR.name() + "=" + historyUri(), "report", JOB_ID);
    assertEquals(0, rc, err());
    assertEquals(5000.0, number(out(), "node energy", "J"), EPS);
    assertTrue(value(out(), "ESTIMATED (model)").contains("nodeA.csv says estimated=true"));
  }

  @Test
  void run_noHistoryFiles_printsCountersAndNamesDirectory() throws Exception {
    int rc = run("report", JOB_ID, "--jhs", jhs.address(), "--history-dir", historyUri());
    assertEquals(0, rc, err());
    assertEquals(1500.0, number(out(), "task energy", "J"), EPS);
    assertEquals(2000.0, number(out(), "work/J", "input records/J"), EPS);
    String where = value(out(), "history files");
    assertTrue(where.startsWith("not found in file:/"), where);
    assertTrue(where.contains("/history/" + APP_ID + " "), where);
    assertEquals("n/a", value(out(), "node energy"));
  }

  @Test
  void run_damagedHistoryFile_failsNamingFileAndLineAfterCounters() throws Exception {
    Path app = Fixtures.writeHistory(tmp.resolve("history"), false);
    Files.writeString(app.resolve("nodeB.csv"), Fixtures.nodeB().replace(
        "sample," + (Fixtures.T0 + 30_000) + ",30.0000", "sample," + (Fixtures.T0 + 30_000)
            + ",thirty"));
    int rc = run("report", JOB_ID, "--jhs", jhs.address(), "--history-dir", historyUri());
    assertEquals(1, rc);
    assertEquals(1500.0, number(out(), "task energy", "J"), EPS);
    assertTrue(err().contains("nodeB.csv:5: damaged history line: watts is not a number: "
        + "'thirty'"), err());
    assertTrue(value(out(), "history files").contains("nodeB.csv:5:"), out());
  }

  @Test
  void run_unknownJob_exitsOneNamingJobAndServer() throws Exception {
    int rc = run("report", "job_1700000000000_0404", "--jhs", jhs.address());
    assertEquals(1, rc);
    assertTrue(err().contains("job_1700000000000_0404"), err());
    assertTrue(err().contains(jhs.address()), err());
    assertEquals("", out());
  }

  @Test
  void run_unreachableServer_exitsOne() throws Exception {
    int port;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
      port = s.getLocalPort();
    }
    assertEquals(1, run("report", JOB_ID, "--jhs", "127.0.0.1:" + port));
    assertTrue(err().contains("127.0.0.1:" + port), err());
  }

  @Test
  void run_badArguments_usageAndExitTwo() throws Exception {
    String[][] bad = {
        {},
        {"report"},
        {"status", JOB_ID},
        {"report", "application_1700000000000_0007"},
        {"report", JOB_ID, "--html"},
        {"report", JOB_ID, "--bogus", "x"},
        {"report", JOB_ID, JOB_ID},
        {"report", JOB_ID, "--jhs", "a:1", "--jhs", "b:2"},
        {"report", JOB_ID, "--jhs", "host:1/path"},
    };
    for (String[] args : bad) {
      err.reset();
      assertEquals(2, run(args), String.join(" ", args));
      assertTrue(err().contains("Usage: energy report <jobId>"), err());
    }
    assertEquals("", out());
    assertTrue(jhs.requests.isEmpty());
  }

  @Test
  void run_help_exitsZero() throws Exception {
    assertEquals(0, run("--help"));
    assertTrue(out().startsWith("Usage: energy report"));
  }

  @Test
  void report_javaEntryPoint_returnsModel() throws Exception {
    Fixtures.writeHistory(tmp.resolve("history"), false);
    Configuration conf = new Configuration();
    conf.set(JobHistoryClient.WEBAPP_ADDRESS, jhs.address());
    conf.set(EnergyKeys.HISTORY_DIR.name(), historyUri());
    EnergyReportModel m = EnergyReport.report(conf, JOB_ID);
    assertEquals(JOB_ID, m.jobId());
    assertEquals(APP_ID, m.applicationId());
    assertEquals(5000.0, m.nodeJoules(), EPS);
    assertEquals(1500.0, m.taskJoules(), EPS);
    assertEquals(2, m.nodes().size());
  }
}

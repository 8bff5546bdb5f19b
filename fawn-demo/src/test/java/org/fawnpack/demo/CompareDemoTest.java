package org.fawnpack.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.util.ToolRunner;
import org.fawnpack.energy.report.EnergyReport;
import org.fawnpack.energy.report.EnergyReportModel;
import org.fawnpack.energy.report.JobHistoryClient;
import org.fawnpack.minicluster.EmbeddedCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./fawn demo --compare} on two small embedded clusters (two Edisons, then one Dell): each
 * cluster's figure in the comparison is what that cluster's own {@code fawn energy report
 * --json} says of the job, and that is the sum of its slaves' node-history samples over the
 * job's span, read here as text (the master's history, role=master, left out).
 */
class CompareDemoTest {
  @TempDir
  Path dir;

  /** Per cluster, job id: [own report's cluster J, the slaves' samples summed here]. */
  private final Map<String, Map<String, double[]>> seen = new LinkedHashMap<>();

  @Test
  void compare_eachClustersFigures_areItsOwnReports_andItsSlavesSamples() throws Exception {
    // One reducer a job: a Dell's twelve reducer JVMs would start on this machine's two cores.
    DemoOptions options = DemoOptions.parse(new String[] {"-D", "mapreduce.job.reduces=1",
        "--compare", "--slaves", "2",
        "--against-slaves", "1", "--text-files", "4", "--text-kb", "64", "--log-files", "4",
        "--log-kb", "32", "--out", dir.toString()});
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    CompareDemo demo = new CompareDemo(options, new PrintStream(printed, true,
        StandardCharsets.UTF_8), this::inspect);
    int rc = demo.run();
    String text = printed.toString(StandardCharsets.UTF_8);
    assertEquals(0, rc, text);

    assertEquals(List.of("edison x2", "dell-r620 x1"), List.copyOf(seen.keySet()));
    for (Map.Entry<String, List<EnergyReportModel>> cluster : demo.reports().entrySet()) {
      Map<String, double[]> own = seen.get(cluster.getKey());
      assertEquals(4, cluster.getValue().size(), cluster.getKey());
      for (EnergyReportModel m : cluster.getValue()) {
        double[] figures = own.get(m.jobId());
        double compared = m.cluster().energy().joules();
        assertEquals(figures[0], compared, 1e-6, cluster.getKey() + " " + m.jobId());
        assertEquals(figures[1], compared, 1e-6, cluster.getKey() + " " + m.jobId());
        assertTrue(text.contains(String.format(Locale.ROOT, "%,.2f", compared)),
            cluster.getKey() + " " + m.jobId() + " " + compared + " J not printed:\n"
                + text);
      }
    }
    assertTrue(text.contains("ESTIMATED"), text);
    // The paper's rows beside: 4 Edisons is not what ran, so its largest, 35; 1 Dell is.
    assertTrue(text.contains("seed 003's Table 8") && text.contains("35 x edison against 1 x"
        + " dell-r620"), text);
    assertTrue(text.contains("93 s 8,124 J"), "wordcount2 on 1 Dell, Table 8:\n" + text);
  }

  private void inspect(String cluster, EmbeddedCluster running, List<JobResult> rows)
      throws Exception {
    Map<String, double[]> jobs = new LinkedHashMap<>();
    JobHistoryClient history = JobHistoryClient.fromConf(running.clientConf());
    for (JobResult row : rows) {
      JobHistoryClient.JobInfo job = history.job(row.jobId());
      jobs.put(row.jobId(), new double[] {ownReport(running, row.jobId()),
          slavesSamples(running.fileSystem(), job.startTime(), job.finishTime())});
    }
    seen.put(cluster, jobs);
  }

  /** The cluster J of {@code fawn energy report JOB --json}, as a user reads it. */
  private double ownReport(EmbeddedCluster running, String jobId) throws Exception {
    Path json = dir.resolve(jobId + ".json");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int rc = ToolRunner.run(running.clientConf(), new EnergyReport(new PrintStream(out, true,
        StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8)),
        new String[] {"report", jobId, "--json", json.toString()});
    assertEquals(0, rc, err.toString(StandardCharsets.UTF_8) + out.toString(
        StandardCharsets.UTF_8));
    JsonNode report = new ObjectMapper().readTree(json.toFile());
    return report.get("cluster").get("joules").asDouble();
  }

  /** Every slave's samples that end in [start, finish], summed, joules. */
  private static double slavesSamples(FileSystem fs, long start, long finish) throws Exception {
    long microjoules = 0;
    for (FileStatus node : fs.listStatus(new org.apache.hadoop.fs.Path("/fawn/energy/nodes"))) {
      for (FileStatus segment : fs.listStatus(node.getPath())) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(
            fs.open(segment.getPath()), StandardCharsets.UTF_8))) {
          in.readLine(); // the format line
          if (in.readLine().contains(" role=master ")) {
            break; // the master's segments: none of them count
          }
          for (String line = in.readLine(); line != null; line = in.readLine()) {
            String[] f = line.split(",");
            long end = f[0].equals("sample") ? Long.parseLong(f[1]) : -1;
            if (end >= start && end <= finish) {
              microjoules += Long.parseLong(f[3]);
            }
          }
        }
      }
    }
    return microjoules / 1e6;
  }
}

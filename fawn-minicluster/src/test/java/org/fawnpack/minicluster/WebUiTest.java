package org.fawnpack.minicluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.map.TokenCounterMapper;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.reduce.IntSumReducer;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNode;
import org.fawnpack.energy.EnergyCounter;
import org.fawnpack.energy.EnergyMetering;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The HTML pages of the ResourceManager and the JobHistory server render in the embedded
 * cluster, each from its own web app, and the JobHistory pages show a metered job's energy.
 */
class WebUiTest {

  @RegisterExtension
  static final MiniClusterExtension CLUSTER = new MiniClusterExtension(b -> b.nodeManagers(2));

  private static final HttpClient HTTP = HttpClient.newBuilder()
      .connectTimeout(Duration.ofSeconds(10)).followRedirects(HttpClient.Redirect.NORMAL).build();

  private static Job job;

  @BeforeAll
  static void runAMeteredJob() throws Exception {
    FileSystem fs = CLUSTER.cluster().fileSystem();
    org.apache.hadoop.fs.Path input = new org.apache.hadoop.fs.Path("/webui/in/words.txt");
    try (OutputStream out = fs.create(input)) {
      out.write("wimpy nodes and a brawny master\n".repeat(2_000)
          .getBytes(StandardCharsets.UTF_8));
    }
    job = Job.getInstance(CLUSTER.cluster().clientConf(), "webui-words");
    job.setJarByClass(WebUiTest.class);
    job.setMapperClass(TokenCounterMapper.class);
    job.setReducerClass(IntSumReducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(IntWritable.class);
    FileInputFormat.addInputPath(job, input);
    FileOutputFormat.setOutputPath(job, new org.apache.hadoop.fs.Path("/webui/out"));
    EnergyMetering.enable(job);
    assertTrue(job.waitForCompletion(false), "the job failed: " + job.getStatus());
  }

  private static String page(String url) throws Exception {
    HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(url))
        .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(200, response.statusCode(), url + " answered " + response.body());
    assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("text/html"),
        url + " is not HTML: " + response.headers().map());
    return response.body();
  }

  private static String address(String key) {
    return "http://" + CLUSTER.cluster().clientConf().get(key);
  }

  @Test
  void resourceManagerPages_listTheJobsApplication() throws Exception {
    String appId = job.getJobID().toString().replace("job_", "application_");
    String rm = address(YarnConfiguration.RM_WEBAPP_ADDRESS);
    assertTrue(page(rm + "/cluster/apps").contains(appId), "no " + appId + " in /cluster/apps");
    assertTrue(page(rm + "/cluster/app/" + appId).contains("webui-words"));
  }

  @Test
  void jobHistoryCountersPage_showsTheEnergyGroupWithTheJobsJoules() throws Exception {
    String jhs = address("mapreduce.jobhistory.webapp.address");
    String jobId = job.getJobID().toString();
    assertTrue(page(jhs + "/jobhistory").contains(jobId), "no " + jobId + " in /jobhistory");
    assertTrue(page(jhs + "/jobhistory/job/" + jobId).contains("webui-words"));

    String counters = page(jhs + "/jobhistory/jobcounters/" + jobId);
    assertTrue(counters.contains("FAWN energy"), "no FAWN energy group on the counters page");
    Counter energy = job.getCounters().findCounter(EnergyCounter.ENERGY_MILLIJOULES);
    assertTrue(energy.getValue() > 0, "the job was not metered: " + energy.getValue());
    // The page's row for the counter: its display name, then the map, reduce and total cells.
    Matcher row = Pattern.compile("Energy \\(mJ\\)</a>?\\s*</td>(.*?)</tr>", Pattern.DOTALL)
        .matcher(counters);
    assertTrue(row.find(), "no Energy (mJ) row on the counters page");
    String total = String.format("%,d", energy.getValue());
    assertTrue(row.group(1).contains(total), "the row lacks the total " + total + ": "
        + row.group(1));
  }

  @Test
  void nodeManagerPages_render() throws Exception {
    int checked = 0;
    for (RMNode node : CLUSTER.cluster().resourceManager().getRMContext().getRMNodes().values()) {
      assertTrue(page("http://" + node.getHttpAddress() + "/node")
          .contains("NodeManager information"), node.getHttpAddress() + "/node");
      checked++;
    }
    assertEquals(2, checked);
  }

  @Test
  void nodeManagerPromPages_showEveryCollectorsFawnEnergyLines() throws Exception {
    int nodeManagers = 0;
    for (RMNode node : CLUSTER.cluster().resourceManager().getRMContext().getRMNodes().values()) {
      String url = "http://" + node.getHttpAddress() + "/prom";
      HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(url))
          .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
      assertEquals(200, response.statusCode(), url + " answered " + response.body());
      // One JVM, one metrics system: each page holds every collector's lines, one per node.
      Map<String, Double> samplesByNode = new TreeMap<>();
      Matcher line = Pattern.compile("^fawn_energy_samples\\{([^}]*)\\} (\\S+)$",
          Pattern.MULTILINE).matcher(response.body());
      while (line.find()) {
        Matcher label = Pattern.compile("node=\"([^\"]+)\"").matcher(line.group(1));
        assertTrue(label.find(), "no node label in " + line.group());
        samplesByNode.put(label.group(1), Double.parseDouble(line.group(2)));
      }
      assertEquals(2, samplesByNode.size(), url + ": " + samplesByNode);
      samplesByNode.forEach((name, samples) ->
          assertTrue(samples > 0, url + ": node " + name + " booked no sample"));
      for (String metric : List.of("fawn_energy_power_watts", "fawn_energy_energy_joules",
          "fawn_energy_node_idle_energy_joules", "fawn_energy_gap_samples",
          "fawn_energy_containers", "fawn_energy_estimated")) {
        assertTrue(response.body().contains("\n" + metric + "{"), url + " lacks " + metric);
      }
      nodeManagers++;
    }
    assertEquals(2, nodeManagers);
  }
}

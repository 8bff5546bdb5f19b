package org.fawnpack.minicluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.lang.management.ManagementFactory;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.fawnpack.energy.EnergyCounter;
import org.fawnpack.jobs.WordCount2;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The energy collector in every NodeManager of a real mini cluster, with the Edison power model
 * (1.40 W idle, 1.68 W busy per node): a job's tasks report joules that the JobHistory server
 * shows, bounded by what the model allows, and each node writes the application's history file.
 */
class EnergyCountersTest {
  private static final double IDLE_WATTS = 1.40;
  private static final double BUSY_WATTS = 1.68;
  private static final int SAMPLE_MS = 250;
  private static final String GROUP = EnergyCounter.class.getName();

  @RegisterExtension
  static final MiniClusterExtension CLUSTER = new MiniClusterExtension(
      b -> b.energySet("fawn.energy.sample-interval-ms", Integer.toString(SAMPLE_MS)));

  private static final Path INPUT = new Path("/in/text");

  @BeforeAll
  static void writeInput() throws Exception {
    new SampleInputs(7, 3000).writeTextFiles(CLUSTER.cluster().fileSystem(), INPUT, 8, 40_000,
        i -> { });
  }

  @Test
  void everyTaskReportsJoulesWithinThePowerModel_andTheJobHistoryServerShowsThem() throws Exception {
    WordCount2 tool = new WordCount2();
    assertEquals(0, ClusterJobs.run(CLUSTER.cluster(), tool,
        "-Dfawn.input.combine.min-split-bytes=1", INPUT.toString(), "/out/metered"));
    Job job = tool.lastJob();
    String jobId = job.getJobID().toString();
    JobHistoryRest history = new JobHistoryRest(CLUSTER.cluster());

    Map<String, Long> counters = history.jobCounters(jobId, GROUP);
    JsonNode tasks = history.get("/jobs/" + jobId + "/tasks").path("tasks").path("task");
    assertTrue(tasks.size() >= 2, "tasks: " + tasks);
    assertEquals(tasks.size(), counters.get("TASKS_METERED"), "every task metered: " + counters);
    assertEquals(0L, counters.getOrDefault("TASKS_UNMETERED", 0L), counters.toString());
    assertEquals(tasks.size(), counters.get("TASKS_ESTIMATED"), "the model is an estimate");
    assertTrue(counters.get("SAMPLES") >= tasks.size(), counters.toString());
    assertEquals(0L, counters.getOrDefault("METER_GAPS", 0L), counters.toString());

    long sum = 0;
    for (JsonNode task : tasks) {
      String taskId = task.path("id").asText();
      Map<String, Long> own = history.taskCounters(jobId, taskId, GROUP);
      long millijoules = own.get("ENERGY_MILLIJOULES");
      long idle = own.get("IDLE_SHARE_MILLIJOULES");
      double seconds = task.path("elapsedTime").asLong() / 1000.0;
      // A container never gets more than its whole node at full power over its life (plus the
      // sample interval that straddles its start); with at most two 1-vcore containers on a
      // 2-vcore node it always gets at least half the node's idle power while it runs.
      double slack = 2 * SAMPLE_MS / 1000.0;
      assertTrue(millijoules <= BUSY_WATTS * (seconds + slack) * 1000,
          taskId + ": " + millijoules + " mJ in " + seconds + " s");
      assertTrue(idle >= IDLE_WATTS / 2 * (seconds - 2 * slack) * 1000 - 1,
          taskId + ": idle " + idle + " mJ in " + seconds + " s");
      assertTrue(idle <= millijoules, taskId + ": idle " + idle + " > " + millijoules);
      sum += millijoules;
    }
    assertEquals(sum, counters.get("ENERGY_MILLIJOULES"), "job total = sum of its tasks");
  }

  @Test
  void mapOnlyJobReportsFromEveryMap() throws Exception {
    WordCount2 tool = new WordCount2();
    assertEquals(0, ClusterJobs.run(CLUSTER.cluster(), tool, "-Dmapreduce.job.reduces=0",
        "-Dfawn.input.combine.min-split-bytes=1", INPUT.toString(), "/out/map-only"));
    var counters = tool.lastJob().getCounters();
    long maps = counters.findCounter(org.apache.hadoop.mapreduce.JobCounter.TOTAL_LAUNCHED_MAPS).getValue();
    assertTrue(maps >= 1);
    assertEquals(maps, counters.findCounter(EnergyCounter.TASKS_METERED).getValue());
    assertTrue(counters.findCounter(EnergyCounter.ENERGY_MILLIJOULES).getValue() > 0);
  }

  @Test
  void eachNodeWritesTheApplicationsHistory_whoseSamplesAddUpToItsContainers() throws Exception {
    WordCount2 tool = new WordCount2();
    assertEquals(0, ClusterJobs.run(CLUSTER.cluster(), tool,
        "-Dfawn.input.combine.min-split-bytes=1", INPUT.toString(), "/out/history"));
    String appId = tool.lastJob().getJobID().toString().replace("job_", "application_");
    FileSystem fs = CLUSTER.cluster().fileSystem();
    Path dir = new Path("/fawn/energy/" + appId);
    List<FileStatus> files = waitForHistory(fs, dir);
    for (FileStatus file : files) {
      long sampled = 0;
      long containers = 0;
      try (BufferedReader in = new BufferedReader(new InputStreamReader(fs.open(file.getPath()),
          StandardCharsets.UTF_8))) {
        assertEquals("# fawn-energy history v1", in.readLine());
        for (String line = in.readLine(); line != null; line = in.readLine()) {
          String[] f = line.split(",");
          if (f[0].equals("sample")) {
            sampled += Long.parseLong(f[4]);
          } else if (f[0].equals("container")) {
            containers += Long.parseLong(f[7]);
          }
        }
      }
      assertTrue(containers > 0, file.getPath() + " has no container energy");
      assertEquals(containers, sampled, file.getPath() + ": per-sample application energy must "
          + "add up to its containers' accounts");
    }
  }

  @Test
  void eachNodeManagerPublishesItsPowerAsMetrics() throws Exception {
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    List<ObjectName> beans = new ArrayList<>();
    for (ObjectName name : server.queryNames(new ObjectName("Hadoop:*"), null)) {
      String source = name.getKeyProperty("name");
      if (source != null && source.startsWith("FawnEnergy")) {
        beans.add(name);
      }
    }
    assertEquals(CLUSTER.cluster().spec().nodeManagers(), beans.size(), "beans: " + beans);
    for (ObjectName bean : beans) {
      double watts = ((Number) server.getAttribute(bean, "PowerWatts")).doubleValue();
      // The Edison model never leaves [idle, busy]; the first interval is still being sampled.
      assertTrue(watts == 0 || (watts >= IDLE_WATTS - 1e-9 && watts <= BUSY_WATTS + 1e-9),
          bean + " PowerWatts " + watts);
      assertEquals(1, ((Number) server.getAttribute(bean, "Estimated")).intValue(), bean.toString());
    }
  }

  private static List<FileStatus> waitForHistory(FileSystem fs, Path dir) throws Exception {
    // The NodeManagers write when YARN tells them the application stopped, a few seconds after
    // the job's end; poll for the directory with a deadline.
    long deadline = System.nanoTime() + 90_000_000_000L;
    while (System.nanoTime() < deadline) {
      if (fs.exists(dir)) {
        List<FileStatus> files = new ArrayList<>(List.of(fs.listStatus(dir)));
        if (!files.isEmpty()) {
          return files;
        }
      }
      Thread.sleep(200);
    }
    throw new AssertionError("no energy history under " + dir + " after 90 s");
  }
}

package org.fawnpack.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.fawnpack.energy.EnergyCounter;
import org.fawnpack.energy.report.EnergyReport;
import org.fawnpack.energy.report.EnergyReportModel;
import org.fawnpack.energy.report.JobHistoryClient;
import org.fawnpack.jobs.WordCount;
import org.fawnpack.jobs.WordCount2;
import org.fawnpack.minicluster.EmbeddedClusterSpec;
import org.fawnpack.minicluster.MiniClusterExtension;
import org.fawnpack.minicluster.SampleInputs;
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
      b -> b.energySet("fawn.energy.sample-interval-ms", Integer.toString(SAMPLE_MS))
          .energySet("fawn.energy.meter-timeout-ms", "200")
          .energySet("fawn.energy.node-history.roll-ms", "1000"));

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
    JobHistoryClient history = ClusterJobs.history(CLUSTER.cluster());

    Map<String, Long> counters = history.counters(jobId).groups().getOrDefault(GROUP, Map.of());
    List<JobHistoryClient.TaskInfo> tasks = history.tasks(jobId);
    assertTrue(tasks.size() >= 2, "tasks: " + tasks);
    assertEquals(tasks.size(), counters.get("TASKS_METERED"), "every task metered: " + counters);
    assertEquals(0L, counters.getOrDefault("TASKS_UNMETERED", 0L), counters.toString());
    assertEquals(tasks.size(), counters.get("TASKS_ESTIMATED"), "the model is an estimate");
    assertTrue(counters.get("SAMPLES") >= tasks.size(), counters.toString());
    // The model meter answers at once, but a starved 2-core machine can miss a 200 ms deadline.
    assertTrue(counters.getOrDefault("METER_GAPS", 0L) < counters.get("SAMPLES"), counters.toString());

    long sum = 0;
    for (JobHistoryClient.TaskInfo task : tasks) {
      String taskId = task.id();
      Map<String, Long> own = history.taskCounters(jobId, taskId).groups()
          .getOrDefault(GROUP, Map.of());
      long millijoules = own.get("ENERGY_MILLIJOULES");
      long idle = own.get("IDLE_SHARE_MILLIJOULES");
      double seconds = (task.finishTime() - task.startTime()) / 1000.0;
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
  void counters_mapOnlyJob_reportedFromEveryMap() throws Exception {
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
    String jobId = tool.lastJob().getJobID().toString();
    List<FileStatus> files = waitForHistory(fs, dir, nodesThatRan(jobId));
    long allContainers = 0;
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
      allContainers += containers;
    }

    // The report joins the JobHistory counters with these files.
    EnergyReportModel report = EnergyReport.report(CLUSTER.cluster().clientConf(), jobId);
    long counted = ClusterJobs.history(CLUSTER.cluster()).counters(jobId)
        .get(GROUP, "ENERGY_MILLIJOULES");
    assertEquals(counted / 1000.0, report.taskJoules(), 1e-9);
    assertEquals(files.size(), report.nodes().size());
    assertEquals(allContainers / 1e6, report.applicationJoules(), 1e-6,
        "application joules = the files' container accounts");
    // The ledger books each container until it exits, the counters until its task asked, and
    // the application's energy also covers its ApplicationMaster.
    assertTrue(report.applicationJoules() >= report.taskJoules(), report.applicationJoules()
        + " J for the application < " + report.taskJoules() + " J in its tasks");
    java.nio.file.Path html = java.nio.file.Files.createTempFile(
        java.nio.file.Path.of(System.getProperty(EmbeddedClusterSpec.BASE_DIR.name(), "target")),
        "energy-report", ".html");
    assertEquals(0, org.apache.hadoop.util.ToolRunner.run(CLUSTER.cluster().clientConf(),
        new EnergyReport(), new String[] {"report", jobId, "--html", html.toString()}));
    String page = java.nio.file.Files.readString(html);
    assertEquals(files.size(), page.split("<polyline class=\"power\"", -1).length - 1,
        "one power line per application history file");
  }

  @Test
  void clusterEnergy_everyNodeBusyOrIdle_isTheSumOfEveryNodesOwnHistory() throws Exception {
    WordCount2 tool = new WordCount2();
    // One vcore's worth of splits: one map, one reducer and the AM leave NodeManagers idle.
    assertEquals(0, ClusterJobs.run(CLUSTER.cluster(), tool, "-Dfawn.input.combine.vcores=1",
        INPUT.toString(), "/out/cluster"));
    String jobId = tool.lastJob().getJobID().toString();
    JobHistoryClient.JobInfo job = ClusterJobs.history(CLUSTER.cluster()).job(jobId);
    int nodeManagers = CLUSTER.cluster().spec().totalNodeManagers();
    assertTrue(nodesThatRan(jobId) < nodeManagers, "some NodeManager must stay idle");

    // The oracle: every node's segments read here as text, each sample ending in the span.
    FileSystem fs = CLUSTER.cluster().fileSystem();
    Map<String, long[]> perNode = new java.util.TreeMap<>(); // node uJ in span, last end ms
    long deadline = System.nanoTime() + 60_000_000_000L;
    do {
      perNode.clear();
      for (FileStatus node : fs.listStatus(new Path("/fawn/energy/nodes"))) {
        long[] figures = {0, 0};
        for (FileStatus segment : fs.listStatus(node.getPath())) {
          try (BufferedReader in = new BufferedReader(new InputStreamReader(
              fs.open(segment.getPath()), StandardCharsets.UTF_8))) {
            assertEquals("# fawn-energy node history v1", in.readLine());
            for (String line = in.readLine(); line != null; line = in.readLine()) {
              String[] f = line.split(",");
              if (f[0].equals("sample")) {
                long end = Long.parseLong(f[1]);
                figures[1] = Math.max(figures[1], end);
                if (end >= job.startTime() && end <= job.finishTime()) {
                  figures[0] += Long.parseLong(f[3]);
                }
              }
            }
          }
        }
        perNode.put(node.getPath().getName(), figures);
      }
    } while ((perNode.size() < nodeManagers || perNode.values().stream()
        .anyMatch(f -> f[1] < job.finishTime())) && System.nanoTime() < deadline
        && sleep(200));
    assertEquals(nodeManagers, perNode.size(), "one node history per NodeManager: " + perNode);
    long sum = perNode.values().stream().mapToLong(f -> f[0]).sum();

    EnergyReportModel report = EnergyReport.report(CLUSTER.cluster().clientConf(), jobId);
    org.fawnpack.energy.report.ClusterEnergy cluster = report.cluster().energy();
    assertTrue(cluster != null, report.cluster().problem());
    assertEquals(nodeManagers, cluster.nodes().size());
    // Every node counted, none waiting for its next segment (a starved 2-core machine may
    // leave a hole of a few samples in one: ClusterEnergyTest checks the coverage rules).
    assertEquals(List.of(), cluster.missing());
    assertEquals(List.of(), cluster.absent());
    assertEquals(List.of(), cluster.named(org.fawnpack.energy.report.ClusterEnergy.Coverage
        .PENDING), "histories reach the job's end");
    assertEquals(sum / 1e6, cluster.joules(), 1e-6, "cluster J = the nodes' samples in the span");
    assertTrue(report.taskJoules() <= cluster.joules(), report.taskJoules() + " J of tasks > "
        + cluster.joules() + " J of cluster");
    // Every node draws between the model's idle and busy power, less the sample at each edge.
    double seconds = (job.finishTime() - job.startTime()) / 1000.0;
    double edge = 2 * SAMPLE_MS / 1000.0;
    assertTrue(cluster.joules() >= nodeManagers * IDLE_WATTS * (seconds - edge) - 1e-6,
        cluster.joules() + " J over " + seconds + " s");
    assertTrue(cluster.joules() <= nodeManagers * BUSY_WATTS * seconds + 1e-6,
        cluster.joules() + " J over " + seconds + " s");

    // The shuffle band: the server's reduce attempts against the job's own history file.
    JobHistoryFile.Shuffle file = JobHistoryFile.shuffle(fs, jobId);
    assertEquals(new EnergyReportModel.Phase(file.firstReduceStart(), file.lastShuffleFinish()),
        report.shufflePhase(), report.phases().shuffleProblem());
    assertEquals(new EnergyReportModel.Phase(file.lastShuffleFinish(), file.lastReduceFinish()),
        report.reducePhase());
    // The page, its application files' power charts included (docs/img/energy-report-*.png).
    assertTrue(CLUSTER.cluster().awaitEnergyHistory(List.of(JobHistoryClient.applicationId(
        jobId)), Duration.ofSeconds(60)));
    java.nio.file.Path html = java.nio.file.Path.of(System.getProperty(
        EmbeddedClusterSpec.BASE_DIR.name(), "target"), "energy-report-wordcount2.html");
    assertEquals(0, org.apache.hadoop.util.ToolRunner.run(CLUSTER.cluster().clientConf(),
        new EnergyReport(), new String[] {"report", jobId, "--html", html.toString()}));
    assertEquals(nodeManagers * 5 + nodesThatRan(jobId), java.nio.file.Files.readString(html)
        .split("<rect class=\"phase shuffle\"", -1).length - 1,
        "a band in every utilisation panel and every application file's power chart");
  }

  private static boolean sleep(long millis) throws InterruptedException {
    Thread.sleep(millis); // the collectors write their segments on their own schedule
    return true;
  }

  @Test
  void metrics_eachNodeManager_publishesItsPower() throws Exception {
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    List<ObjectName> beans = new ArrayList<>();
    List<ObjectName> elsewhere = new ArrayList<>();
    for (ObjectName name : server.queryNames(new ObjectName("Hadoop:*"), null)) {
      String source = name.getKeyProperty("name");
      if (source != null && source.startsWith("FawnEnergy")) {
        // Under the NodeManager's service, as on a real node, even with every daemon in one JVM.
        (name.getKeyProperty("service").equals("NodeManager") ? beans : elsewhere).add(name);
      }
    }
    assertEquals(List.of(), elsewhere, "FawnEnergy beans outside service=NodeManager");
    assertEquals(CLUSTER.cluster().spec().nodeManagers(), beans.size(), "beans: " + beans);
    for (ObjectName bean : beans) {
      long deadline = System.nanoTime() + 30_000_000_000L;
      while (((Number) server.getAttribute(bean, "Samples")).longValue() == 0
          && System.nanoTime() < deadline) {
        Thread.sleep(100); // the JMX view refreshes from the source at most every few seconds
      }
      double watts = ((Number) server.getAttribute(bean, "PowerWatts")).doubleValue();
      // The Edison model never leaves [idle, busy]; the first interval is still being sampled.
      assertTrue(watts == 0 || (watts >= IDLE_WATTS - 1e-9 && watts <= BUSY_WATTS + 1e-9),
          bean + " PowerWatts " + watts);
      assertEquals(1, ((Number) server.getAttribute(bean, "Estimated")).intValue(), bean.toString());
    }
  }

  @Test
  void comparison_baselineAndOptimisedWordCount_figuresFromEachJobsCounters() throws Exception {
    WordCount baseline = new WordCount();
    assertEquals(0, ClusterJobs.run(CLUSTER.cluster(), baseline, INPUT.toString(),
        "/out/compare-baseline"));
    WordCount2 optimised = new WordCount2();
    assertEquals(0, ClusterJobs.run(CLUSTER.cluster(), optimised, INPUT.toString(),
        "/out/compare-optimised"));
    Job[] jobs = {baseline.lastJob(), optimised.lastJob()};

    assertTrue(CLUSTER.cluster().awaitEnergyHistory(List.of(
        jobs[0].getJobID().toString().replace("job_", "application_"),
        jobs[1].getJobID().toString().replace("job_", "application_")), Duration.ofSeconds(60)));
    List<EnergyReportModel> models = new ArrayList<>();
    for (Job job : jobs) {
      EnergyReportModel model = EnergyReport.report(CLUSTER.cluster().clientConf(),
          job.getJobID().toString());
      // Every node that ran a container of the job has written its history file by now.
      assertEquals(nodesThatRan(job.getJobID().toString()), model.nodes().size(),
          job.getJobID() + " history files");
      models.add(model);
    }
    String text = EnergyReport.comparisonText(models);
    // The oracle: each job's counters as its client got them, turned into figures by hand.
    double[] joules = new double[2];
    double[] perJoule = new double[2];
    for (int i = 0; i < 2; i++) {
      var counters = jobs[i].getCounters();
      joules[i] = counters.findCounter(EnergyCounter.ENERGY_MILLIJOULES).getValue() / 1000.0;
      long records = counters.findCounter(TaskCounter.MAP_INPUT_RECORDS).getValue();
      perJoule[i] = records / joules[i];
      String id = jobs[i].getJobID().toString();
      String row = text.lines().filter(l -> l.startsWith(id)).findFirst()
          .orElseThrow(() -> new AssertionError("no row for " + id + " in\n" + text));
      assertTrue(row.contains(String.format(Locale.ROOT, " %,.2f* ", joules[i])),
          "task joules " + joules[i] + " in " + row);
      assertTrue(row.contains(String.format(Locale.ROOT, " %,d input records ", records)),
          "work " + records + " in " + row);
      assertTrue(row.contains(String.format(Locale.ROOT, " %,.1f ", perJoule[i])),
          "work/J " + perJoule[i] + " in " + row);
    }
    String second = text.lines().filter(l -> l.startsWith(jobs[1].getJobID().toString()))
        .findFirst().orElseThrow();
    // The row ends with the ratios of task joules and of work per joule to the first job.
    assertTrue(second.matches(".* " + Pattern.quote(String.format(Locale.ROOT, "%.2fx",
        joules[1] / joules[0])) + " +" + Pattern.quote(String.format(Locale.ROOT, "%.2fx",
        perJoule[1] / perJoule[0])) + "$"), second);

    java.nio.file.Path html = java.nio.file.Files.createTempFile(
        java.nio.file.Path.of(System.getProperty(EmbeddedClusterSpec.BASE_DIR.name(), "target")),
        "energy-comparison", ".html");
    assertEquals(0, org.apache.hadoop.util.ToolRunner.run(CLUSTER.cluster().clientConf(),
        new EnergyReport(), new String[] {"report", jobs[0].getJobID().toString(),
            jobs[1].getJobID().toString(), "--html", html.toString()}));
    String page = java.nio.file.Files.readString(html);
    for (Job job : jobs) {
      assertTrue(page.contains(job.getJobID().toString()), "no " + job.getJobID() + " on the page");
    }
    // wordcount2's bar against its baseline twin, wordcount.
    assertTrue(page.contains(String.format(Locale.ROOT, "%,.2f J (%.2fx of wordcount)",
        joules[1], joules[1] / joules[0])), "the optimised job's joules bar");
  }

  /** NodeManagers that ran a container of the job: its successful task attempts and its AM. */
  private static int nodesThatRan(String jobId) throws Exception {
    JobHistoryClient history = ClusterJobs.history(CLUSTER.cluster());
    java.util.Set<String> nodes = new java.util.HashSet<>();
    for (JobHistoryClient.TaskInfo task : history.tasks(jobId)) {
      for (JobHistoryClient.AttemptInfo attempt : history.taskAttempts(jobId, task.id())) {
        if (attempt.succeeded()) {
          nodes.add(attempt.nodeHttpAddress());
        }
      }
    }
    nodes.addAll(history.applicationMasterNodes(jobId));
    return nodes.size();
  }

  private static List<FileStatus> waitForHistory(FileSystem fs, Path dir, int nodes)
      throws Exception {
    // The NodeManagers write when YARN tells them the application stopped, a few seconds after
    // the job's end; poll for one file per node with a deadline.
    long deadline = System.nanoTime() + 90_000_000_000L;
    List<FileStatus> files = List.of();
    while (System.nanoTime() < deadline) {
      if (fs.exists(dir)) {
        files = new ArrayList<>(List.of(fs.listStatus(dir)));
        if (files.size() >= nodes) {
          return files;
        }
      }
      Thread.sleep(200);
    }
    throw new AssertionError(files.size() + " energy history files under " + dir + " after 90 s;"
        + " expected one from each of the " + nodes + " NodeManagers that ran containers");
  }
}

package org.fawnpack.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceManager;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNode;
import org.fawnpack.configs.ClusterRenderer;
import org.fawnpack.configs.InventoryReader;
import org.fawnpack.configs.Profile;
import org.fawnpack.configs.ProfileReader;
import org.fawnpack.configs.RenderedCluster;
import org.fawnpack.configs.Setting;
import org.fawnpack.configs.Validator;
import org.fawnpack.energy.report.JobHistoryClient;
import org.fawnpack.jobs.WordCount2;
import org.fawnpack.jobs.pi.Pi;
import org.fawnpack.jobs.pi.PiCounter;
import org.fawnpack.minicluster.EmbeddedClusterSpec;
import org.fawnpack.minicluster.JobOutputs;
import org.fawnpack.minicluster.MiniClusterExtension;
import org.fawnpack.minicluster.RenderedClusterConfig;
import org.fawnpack.minicluster.SampleInputs;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A heterogeneous cluster started from rendered configuration: one brawny master whose
 * NodeManager runs only ApplicationMasters, three Edison slaves. The expectations come from
 * the rendered files, read back with Hadoop's Configuration. Where tasks ran is checked against
 * the JobHistory server's task attempts.
 */
class ProfileClusterTest {

  private static final String INVENTORY = "cluster: hetero\nhosts:\n"
      + "  - {host: boss, profile: brawny-master}\n"
      + "  - {host: \"edison-[1-3]\", profile: edison}\n";
  private static final Path RENDERED =
      Path.of(EmbeddedClusterSpec.BASE_DIR.read(System::getProperty), "ProfileClusterTest-conf");
  private static final org.apache.hadoop.fs.Path INPUT =
      new org.apache.hadoop.fs.Path("/in/profile-text");

  @RegisterExtension
  static final MiniClusterExtension CLUSTER = new MiniClusterExtension(b -> {
    try {
      RenderedCluster rendered = ClusterRenderer.render(
          InventoryReader.parse("hetero.yaml", INVENTORY, null));
      rendered.write(RENDERED);
      return RenderedClusterConfig.applyTo(b.dataNodes(3), RENDERED);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  });

  private static Map<String, Long> expected;

  @BeforeAll
  static void writeInput() throws Exception {
    FileSystem fs = CLUSTER.cluster().fileSystem();
    new SampleInputs(7, 2000).writeTextFiles(fs, INPUT, 9, 30_000, i -> { });
    expected = Oracle.wordCounts(fs, INPUT);
  }

  private static Configuration rendered(String host, String file) {
    Configuration conf = new Configuration(false);
    conf.addResource(new org.apache.hadoop.fs.Path(RENDERED.resolve(host).resolve(file).toUri()));
    return conf;
  }

  @Test
  void renderedConfiguration_passesValidation() {
    assertFalse(Validator.hasErrors(Validator.validate(
        org.fawnpack.configs.ClusterConfs.read(RENDERED))));
  }

  @Test
  void nodeManagers_registerWithTheirProfilesMemoryAndVcores() throws Exception {
    ResourceManager rm = CLUSTER.cluster().resourceManager();
    NodeId master = CLUSTER.cluster().masterNodeManager();
    // The oracle is each host's profile, not the rendered files (which are under test too).
    Resource bossSize = size(ProfileReader.builtIn("brawny-master"));
    Resource edisonSize = size(ProfileReader.builtIn("edison"));
    assertEquals(600, edisonSize.getMemorySize());   // seed 003 §5.2
    for (String host : List.of("boss", "edison-1", "edison-2", "edison-3")) {
      Configuration yarn = rendered(host, "yarn-site.xml");
      assertEquals(host.equals("boss") ? bossSize : edisonSize, Resource.newInstance(
          yarn.getInt("yarn.nodemanager.resource.memory-mb", -1),
          yarn.getInt("yarn.nodemanager.resource.cpu-vcores", -1)), host);
    }
    Map<NodeId, RMNode> nodes = rm.getRMContext().getRMNodes();
    assertEquals(4, nodes.size());
    for (NodeId id : nodes.keySet()) {
      Resource want = id.equals(master) ? bossSize : edisonSize;
      // The resize reaches the scheduler through the RM's dispatcher: wait for it.
      Resource seen = null;
      for (int i = 0; i < 100; i++) {
        seen = rm.getResourceScheduler().getSchedulerNode(id).getTotalResource();
        if (seen.equals(want)) {
          break;
        }
        Thread.sleep(100);
      }
      assertEquals(want, seen, id.toString());
      Set<String> labels = rm.getRMContext().getNodeLabelManager().getLabelsOnNode(id);
      assertEquals(id.equals(master) ? Set.of("master") : Set.of(), labels, id.toString());
    }
  }

  @Test
  void wordcount2_runsItsAmOnTheMasterAndEveryTaskFitsAnEdison() throws Exception {
    WordCount2 tool = new WordCount2();
    assertEquals(0, ClusterJobs.run(CLUSTER.cluster(), tool,
        "-Dfawn.input.combine.min-split-bytes=1", INPUT.toString(), "/out/profile-wc2"));
    assertEquals(expected, JobOutputs.read(CLUSTER.cluster().fileSystem(),
        new org.apache.hadoop.fs.Path("/out/profile-wc2")));

    String jobId = tool.lastJob().getJobID().toString();
    assertEquals(masterPort(), amPort(jobId), "the ApplicationMaster's node");
    List<String> taskPorts = taskAttemptPorts(jobId);
    assertTrue(taskPorts.size() >= 2, "task attempts: " + taskPorts);
    assertTrue(edisonPorts().containsAll(taskPorts), "tasks ran on " + taskPorts
        + ", the Edisons are " + edisonPorts());

    // The containers the tasks really got: memory x time over time = each container's size.
    Counters counters = tool.lastJob().getCounters();
    assertTrue(counters.findCounter(JobCounter.TOTAL_LAUNCHED_MAPS).getValue() >= 2,
        "several maps, spread over the Edisons");
    Profile edison = ProfileReader.builtIn("edison");
    long mapMb = counters.findCounter(JobCounter.MB_MILLIS_MAPS).getValue()
        / counters.findCounter(JobCounter.MILLIS_MAPS).getValue();
    long reduceMb = counters.findCounter(JobCounter.MB_MILLIS_REDUCES).getValue()
        / counters.findCounter(JobCounter.MILLIS_REDUCES).getValue();
    assertEquals(edison.get(Setting.MAP_MEMORY_MB), mapMb);
    assertEquals(edison.get(Setting.REDUCE_MEMORY_MB), reduceMb);
    assertTrue(mapMb <= edison.get(Setting.NODE_MEMORY_MB)
        && reduceMb <= edison.get(Setting.NODE_MEMORY_MB));
    // And in vcores: vcore x time over time = each map container's vcores.
    long mapVcores = counters.findCounter(JobCounter.VCORES_MILLIS_MAPS).getValue()
        / counters.findCounter(JobCounter.MILLIS_MAPS).getValue();
    assertTrue(mapVcores >= 1 && mapVcores <= edison.get(Setting.VCORES), "map vcores "
        + mapVcores);
  }

  @Test
  void clusterJoules_countTheEdisons_theMasterApartOnItsOwnPowerModel() throws Exception {
    WordCount2 tool = new WordCount2();
    assertEquals(0, ClusterJobs.run(CLUSTER.cluster(), tool, INPUT.toString(),
        "/out/profile-energy"));
    String jobId = tool.lastJob().getJobID().toString();
    JobHistoryClient.JobInfo job = ClusterJobs.history(CLUSTER.cluster()).job(jobId);
    assertTrue(CLUSTER.cluster().awaitNodeHistories(job.finishTime(),
        java.time.Duration.ofSeconds(60)), "node histories reach the job's end");
    org.fawnpack.energy.report.ClusterEnergy energy = org.fawnpack.energy.report.EnergyReport
        .report(CLUSTER.cluster().clientConf(), jobId).cluster().energy();
    assertTrue(energy != null, "cluster energy");
    // The oracle: the profiles' power figures (seed 003 Table 3) over the job's span.
    double seconds = (job.finishTime() - job.startTime()) / 1000.0;
    Profile.Power boss = ProfileReader.builtIn("brawny-master").power().orElseThrow();
    Profile.Power edison = ProfileReader.builtIn("edison").power().orElseThrow();
    assertEquals(1, energy.nodes().stream().filter(
        org.fawnpack.energy.report.ClusterEnergy.NodeSpan::master).count(), "one master");
    assertEquals(3, energy.slaveCount(), "the three Edisons");
    double edge = 2.0; // a sample interval at each end of the span
    assertTrue(energy.masterJoules() >= boss.idleWatts().value() * (seconds - edge)
        && energy.masterJoules() <= boss.busyWatts().value() * seconds,
        energy.masterJoules() + " J of the master over " + seconds + " s");
    assertTrue(energy.joules() >= 3 * edison.idleWatts().value() * (seconds - edge)
        && energy.joules() <= 3 * edison.busyWatts().value() * seconds,
        energy.joules() + " J of the Edisons over " + seconds + " s");
  }

  @Test
  void pi_smallTotal_mapsRunOnTheEdisonsNotOnTheMaster() throws Exception {
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    Pi pi = new PrintingPi(printed);
    assertEquals(0, ClusterJobs.run(CLUSTER.cluster(), pi, "4", "250000"));
    String jobId = pi.lastJob().getJobID().toString();
    // The oracle is the JobHistory server: whether the AM ran the maps, and on which nodes.
    assertFalse(ClusterJobs.history(CLUSTER.cluster()).uberized(jobId), "uberized");
    assertEquals(masterPort(), amPort(jobId), "the ApplicationMaster's node");
    List<String> taskPorts = taskAttemptPorts(jobId);
    assertFalse(taskPorts.isEmpty());
    assertTrue(edisonPorts().containsAll(taskPorts), "pi's maps ran on " + taskPorts
        + ", the Edisons are " + edisonPorts() + "; the master is " + masterPort());
    assertEquals(4 * 250_000L, pi.lastJob().getCounters().findCounter(PiCounter.SAMPLES)
        .getValue());
    String out = printed.toString(StandardCharsets.UTF_8);
    assertTrue(out.contains("each in a container of its own, on ") && out.contains(
        "without a node label"), out);
  }

  @Test
  void pi_forcedUber_runsInsideTheApplicationMasterOnTheMaster() throws Exception {
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    Pi pi = new PrintingPi(printed);
    assertEquals(0, ClusterJobs.run(CLUSTER.cluster(), pi,
        "-Dmapreduce.job.ubertask.enable=true", "4", "250000"));
    String jobId = pi.lastJob().getJobID().toString();
    assertTrue(ClusterJobs.history(CLUSTER.cluster()).uberized(jobId), "uberized");
    List<String> taskPorts = taskAttemptPorts(jobId);
    assertEquals(Set.of(masterPort()), Set.copyOf(taskPorts), "the maps ran on " + taskPorts);
    assertEquals(4 * 250_000L, pi.lastJob().getCounters().findCounter(PiCounter.SAMPLES)
        .getValue());
    String out = printed.toString(StandardCharsets.UTF_8);
    assertTrue(out.contains("as an uber job, inside the ApplicationMaster's container on 1 node"
        + " labelled 'master'"), out);
  }

  private static String masterPort() {
    ResourceManager rm = CLUSTER.cluster().resourceManager();
    return port(rm.getRMContext().getRMNodes().get(CLUSTER.cluster().masterNodeManager())
        .getHttpAddress());
  }

  private static Set<String> edisonPorts() {
    NodeId master = CLUSTER.cluster().masterNodeManager();
    Set<String> ports = new HashSet<>();
    CLUSTER.cluster().resourceManager().getRMContext().getRMNodes().forEach((id, node) -> {
      if (!id.equals(master)) {
        ports.add(port(node.getHttpAddress()));
      }
    });
    return ports;
  }

  /** The port of the node the job's (one) ApplicationMaster attempt ran on, from JobHistory. */
  private static String amPort(String jobId) throws Exception {
    List<String> amNodes = ClusterJobs.history(CLUSTER.cluster()).applicationMasterNodes(jobId);
    assertEquals(1, amNodes.size(), amNodes.toString());
    return port(amNodes.get(0));
  }

  /** The ports of the nodes of every task attempt of the job, from JobHistory. */
  private static List<String> taskAttemptPorts(String jobId) throws Exception {
    JobHistoryClient history = ClusterJobs.history(CLUSTER.cluster());
    List<String> ports = new ArrayList<>();
    for (JobHistoryClient.TaskInfo task : history.tasks(jobId)) {
      for (JobHistoryClient.AttemptInfo attempt : history.taskAttempts(jobId, task.id())) {
        ports.add(port(attempt.nodeHttpAddress()));
      }
    }
    return ports;
  }

  /** pi with its printed lines captured. */
  private static final class PrintingPi extends Pi {
    PrintingPi(ByteArrayOutputStream out) {
      super(new PrintStream(out, true, StandardCharsets.UTF_8));
    }
  }

  private static Resource size(Profile profile) {
    return Resource.newInstance(profile.get(Setting.NODE_MEMORY_MB), profile.get(Setting.VCORES));
  }

  private static String port(String hostPort) {
    return hostPort.substring(hostPort.lastIndexOf(':') + 1);
  }
}

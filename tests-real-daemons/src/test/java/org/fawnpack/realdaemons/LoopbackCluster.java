package org.fawnpack.realdaemons;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.fawnpack.configs.StartStep;

/**
 * A brawny master and three Edison slaves on loopback addresses, configured only by
 * {@code fawn profile render} (run as the operator runs it: {@code hadoop jar fawn-jobs.jar
 * profile ...}), each daemon in its own JVM, started in the rendered README's order
 * ({@link StartStep}).
 *
 * <p>The inventory's overrides hold what only several hosts on one machine need: the shuffle's
 * and the collector's ports (both bind every address, or loopback), and each DataNode's ports
 * (the NameNode sees every DataNode from 127.0.0.1, so they must differ). Each host's address
 * and box are given, so HDFS places replicas by the rendered rack table.
 */
final class LoopbackCluster implements AutoCloseable {
  static final String MASTER = "127.0.0.2";
  static final List<String> SLAVES = List.of("127.0.0.3", "127.0.0.4", "127.0.0.5");
  /** Each host's box (failure domain, an HDFS rack): the master alone, the slaves in two. */
  static final Map<String, String> BOXES = Map.of(MASTER, "/box0", "127.0.0.3", "/box1",
      "127.0.0.4", "/box2", "127.0.0.5", "/box2");
  /** Seconds any one start step or wait may take. */
  static final long STEP_SECONDS = 180;

  final HadoopLayout layout;
  final Path dir;
  final Path rendered;
  final Path logs;
  private final Path jobsJar;
  private final Map<String, JavaProcess> daemons = new LinkedHashMap<>();

  LoopbackCluster(HadoopLayout layout, Path dir, Path jobsJar) {
    this.layout = layout;
    this.dir = dir;
    this.rendered = dir.resolve("conf");
    this.logs = dir.resolve("logs");
    this.jobsJar = jobsJar;
  }

  /** The inventory an operator would write for this cluster. */
  String inventory(Path energyJar) {
    StringBuilder y = new StringBuilder();
    y.append("cluster: loopback\n");
    y.append("hadoop-home: ").append(layout.home()).append('\n');
    // Every host's directory holds the same topology.table; the master's is the one named.
    y.append("hadoop-conf-dir: ").append(confOf(MASTER)).append('\n');
    y.append("data-dirs: ").append(dir.resolve("data")).append("/{host}/disk{disk}\n");
    y.append("energy-collector-jar: ").append(energyJar).append('\n');
    y.append("hosts:\n");
    y.append(host(MASTER, "brawny-master", 0, false));
    for (int i = 0; i < SLAVES.size(); i++) {
      y.append(host(SLAVES.get(i), "edison", i + 1, true));
    }
    return y.toString();
  }

  private static String host(String name, String profile, int index, boolean dataNode) {
    StringBuilder h = new StringBuilder();
    h.append("  - host: ").append(name).append('\n');
    h.append("    profile: ").append(profile).append('\n');
    h.append("    address: ").append(name).append('\n');
    h.append("    domain: ").append(BOXES.get(name)).append('\n');
    h.append("    overrides:\n");
    h.append("      yarn-site.xml: {fawn.energy.port: ").append(13564 + 10 * index).append("}\n");
    // In mapred-site: the NodeManager loads mapred-default.xml (13562) after its yarn-site.
    h.append("      mapred-site.xml: {mapreduce.shuffle.port: ").append(13562 + 10 * index)
        .append("}\n");
    if (!dataNode) {
      // 127.0.0.3-5 have no reverse DNS here; a real cluster's names resolve.
      h.append("      hdfs-site.xml: {dfs.namenode.datanode.registration.ip-hostname-check:")
          .append(" false}\n");
    } else {
      int port = 19860 + 10 * index;
      h.append("      hdfs-site.xml: {dfs.datanode.address: \"0.0.0.0:").append(port)
          .append("\", dfs.datanode.http.address: \"0.0.0.0:").append(port + 1)
          .append("\", dfs.datanode.ipc.address: \"0.0.0.0:").append(port + 2)
          .append("\", hadoop.rpc.socket.factory.class.DatanodeProtocolPB: ")
          .append(HostBoundSocketFactory.class.getName()).append(", ")
          .append(HostBoundSocketFactory.BIND_ADDRESS).append(": ").append(name)
          .append("}\n");
    }
    return h.toString();
  }

  /** {@code hadoop jar fawn-jobs.jar profile ARGS}: exit code and output. */
  JavaProcess.Result profile(String... args) throws IOException, InterruptedException {
    Path empty = Files.createDirectories(dir.resolve("empty-conf"));
    List<String> all = new ArrayList<>(List.of(jobsJar.toString(), "profile"));
    all.addAll(List.of(args));
    return JavaProcess.run("profile-" + args[0], layout, empty, logs, 120,
        "org.apache.hadoop.util.RunJar", all.toArray(String[]::new));
  }

  Path confOf(String host) {
    return rendered.resolve(host);
  }

  Path clientConf() {
    return rendered.resolve("client");
  }

  /** Every step of the rendered start order; first-start steps too when {@code fresh}. */
  void start(boolean fresh) throws IOException, InterruptedException {
    for (StartStep step : StartStep.values()) {
      if (step.firstStartOnly() && !fresh) {
        continue;
      }
      List<String> hosts = step.where() == StartStep.Where.MASTER ? List.of(MASTER) : SLAVES;
      for (String host : hosts) {
        run(step, host);
      }
    }
    awaitNodeManagers(1 + SLAVES.size());
  }

  private void run(StartStep step, String host) throws IOException, InterruptedException {
    switch (step) {
      case FORMAT_NAMENODE -> command(host, "namenode-format",
          "org.apache.hadoop.hdfs.server.namenode.NameNode", "-format", "-nonInteractive");
      case NAMENODE -> daemon(host, "namenode", "384m",
          "org.apache.hadoop.hdfs.server.namenode.NameNode");
      case DATANODES -> daemon(host, "datanode", "192m",
          "org.apache.hadoop.hdfs.server.datanode.DataNode");
      case HDFS_WRITABLE -> retried(host, "safemode-wait", "org.apache.hadoop.hdfs.tools.DFSAdmin",
          "-safemode", "wait");
      case RESOURCEMANAGER -> daemon(host, "resourcemanager", "512m",
          "org.apache.hadoop.yarn.server.resourcemanager.ResourceManager");
      case NODE_LABEL -> retried(host, "rmadmin", "org.apache.hadoop.yarn.client.cli.RMAdminCLI",
          "-addToClusterNodeLabels", "master(exclusive=true)");
      case HISTORYSERVER -> daemon(host, "historyserver", "384m",
          "org.apache.hadoop.mapreduce.v2.hs.JobHistoryServer");
      case MASTER_NODEMANAGER, NODEMANAGERS -> daemon(host, "nodemanager", "256m",
          "org.apache.hadoop.yarn.server.nodemanager.NodeManager");
    }
  }

  private void command(String host, String name, String main, String... args)
      throws IOException, InterruptedException {
    JavaProcess.Result r = JavaProcess.run(host + "-" + name, layout, confOf(host), logs,
        STEP_SECONDS, this::failIfADaemonDied, main, args);
    if (r.exitCode() != 0) {
      throw new IOException(host + " " + name + " exited with " + r.exitCode() + ":\n"
          + tail(r.output()));
    }
  }

  /**
   * A command against a daemon just started: run again (30 times at most, 2 s apart) while the
   * daemon is not listening yet, as the README says.
   */
  private void retried(String host, String name, String main, String... args)
      throws IOException, InterruptedException {
    String last = "";
    for (int attempt = 1; attempt <= 30; attempt++) {
      JavaProcess.Result r = JavaProcess.run(host + "-" + name, layout, confOf(host), logs,
          STEP_SECONDS, this::failIfADaemonDied, main, args);
      if (r.exitCode() == 0) {
        return;
      }
      last = r.output();
      failIfADaemonDied();
      Thread.sleep(2000);
    }
    throw new IOException(host + " " + name + " failed 30 times:\n" + tail(last));
  }

  void daemon(String host, String name, String heap, String main) throws IOException {
    String key = host + "-" + name;
    daemons.put(key, JavaProcess.start(key, layout, confOf(host), logs, heap, main,
        List.of(), name.equals("datanode") ? testClasses() : null));
  }

  /** Where {@link HostBoundSocketFactory} is, for the DataNodes' class path. */
  private static Path testClasses() throws IOException {
    try {
      return Path.of(HostBoundSocketFactory.class.getProtectionDomain().getCodeSource()
          .getLocation().toURI());
    } catch (java.net.URISyntaxException e) {
      throw new IOException(e);
    }
  }

  JavaProcess daemonOf(String host, String name) {
    return daemons.get(host + "-" + name);
  }

  /** Waits until the ResourceManager lists {@code count} RUNNING NodeManagers. */
  void awaitNodeManagers(int count) throws IOException, InterruptedException {
    String url = "http://" + MASTER + ":8088/ws/v1/cluster/nodes?states=RUNNING";
    String last = "";
    for (int i = 0; i < STEP_SECONDS; i++) {
      try {
        last = get(url);
        if (last.split("\"state\":\"RUNNING\"", -1).length - 1 >= count) {
          return;
        }
      } catch (IOException e) {
        last = e.toString();
      }
      failIfADaemonDied();
      Thread.sleep(1000);
    }
    throw new IOException(count + " NodeManagers not RUNNING after " + STEP_SECONDS + " s: "
        + last);
  }

  /** A daemon that exited on its own fails the test at once, with its log's end. */
  void failIfADaemonDied() throws IOException {
    for (JavaProcess p : daemons.values()) {
      if (!p.isAlive()) {
        throw new IOException(p.name() + " exited; its log ends:\n" + p.tail(40));
      }
    }
  }

  static String get(String url) throws IOException, InterruptedException {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(url))
        .timeout(Duration.ofSeconds(20)).header("Accept", "application/json").build(),
        HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IOException(url + ": HTTP " + response.statusCode() + " " + response.body());
    }
    return response.body();
  }

  private static String tail(String output) {
    String[] lines = output.split("\n");
    return String.join("\n", java.util.Arrays.copyOfRange(lines, Math.max(0, lines.length - 30),
        lines.length));
  }

  /**
   * Stops every daemon, newest first, then the containers they started: a supervised
   * NodeManager (rendered for recovery) leaves its containers running when it stops.
   */
  @Override
  public void close() {
    List<JavaProcess> reverse = new ArrayList<>(daemons.values());
    java.util.Collections.reverse(reverse);
    List<ProcessHandle> children = new ArrayList<>();
    for (JavaProcess p : reverse) {
      children.addAll(p.descendants());
      try {
        p.stop();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        p.destroyNow(); // interrupted: stop the rest at once
      }
    }
    for (ProcessHandle child : children) {
      child.destroyForcibly();
    }
    daemons.clear();
  }
}

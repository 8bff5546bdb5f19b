package org.fawnpack.configs;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.net.NetUtils;
import org.fawnpack.energy.EnergyKeys;

/**
 * The rules a real install needs beyond sizes (the mini cluster sets these things itself, a real
 * one does not):
 *
 * <ul>
 * <li>MapReduce's containers must get {@code HADOOP_MAPRED_HOME}: its default classpath is
 *     {@code $HADOOP_MAPRED_HOME/share/hadoop/mapreduce/*}, and without it the AM fails with
 *     "Could not find or load main class ...MRAppMaster";</li>
 * <li>NodeManager recovery needs a fixed {@code yarn.nodemanager.address} port (the NodeManager
 *     refuses to start otherwise), and the energy collector a fixed port too (warning);</li>
 * <li>data directories under {@code /tmp} (warning: wiped at reboot, Hadoop's default);</li>
 * <li>{@code mapreduce.shuffle.port} in yarn-site.xml only (warning: mapred-default.xml's 13562
 *     wins in the NodeManager).</li>
 * </ul>
 */
final class InstallRules {
  private static final String MAPRED_HOME = "HADOOP_MAPRED_HOME";

  private final ClusterConfs confs;
  private final List<Finding> findings = new ArrayList<>();

  private InstallRules(ClusterConfs confs) {
    this.confs = confs;
  }

  static List<Finding> check(ClusterConfs confs, String master) {
    InstallRules rules = new InstallRules(confs);
    List<String> jobSide = new ArrayList<>(confs.hostNames());
    if (confs.hasClient()) {
      jobSide.add(RenderedCluster.CLIENT_DIR);
    }
    boolean whitelisted = confs.hostNames().stream().allMatch(h -> confs.conf(h, Validator.YARN)
        .getTrimmedStringCollection("yarn.nodemanager.env-whitelist").contains(MAPRED_HOME));
    for (String host : jobSide) {
      rules.mapredHome(host, whitelisted);
    }
    for (String host : confs.hostNames()) {
      rules.recovery(host);
      rules.dataDirs(host, host.equals(master));
      rules.shufflePort(host);
    }
    return rules.findings;
  }

  /** Rule: every MapReduce container must find MapReduce's jars. */
  private void mapredHome(String host, boolean whitelisted) {
    Configuration m = confs.conf(host, Validator.MAPRED);
    String classpath = m.getTrimmed("mapreduce.application.classpath", "");
    if (whitelisted || !(classpath.isEmpty() || classpath.contains(MAPRED_HOME))) {
      return; // the NodeManagers pass their own, or the classpath does not need it
    }
    for (String key : ClusterRenderer.ENV_KEYS) {
      String env = m.get(key, "");
      if (!env.matches("(.*,)?\\s*" + MAPRED_HOME + "=[^,]+.*")) {
        findings.add(new Finding(Finding.Severity.ERROR, host, Validator.MAPRED, key, env,
            "does not set " + MAPRED_HOME + " (nor does yarn.nodemanager.env-whitelist pass it"
            + " on every NodeManager): MapReduce's classpath is $" + MAPRED_HOME
            + "/share/hadoop/mapreduce/*, so the container fails with 'Could not find or load"
            + " main class'; set " + MAPRED_HOME + "=<Hadoop's install directory>"));
      }
    }
  }

  /** Rules: recovery needs fixed ports for the NodeManager and for the collector. */
  private void recovery(String host) {
    Configuration y = confs.conf(host, Validator.YARN);
    if (!y.getBoolean("yarn.nodemanager.recovery.enabled", false)) {
      return;
    }
    String address = y.get("yarn.nodemanager.address", "0.0.0.0:0");
    if (port(address) == 0) {
      findings.add(new Finding(Finding.Severity.ERROR, host, Validator.YARN,
          "yarn.nodemanager.address", address, "has an ephemeral port while"
          + " yarn.nodemanager.recovery.enabled=true: the NodeManager refuses to start"
          + " ('Cannot support recovery with an ephemeral server port')"));
    }
    if (y.getTrimmed("yarn.nodemanager.aux-services", "").contains("fawn_energy")
        && y.getInt(EnergyKeys.PORT.name(), 0) == 0) {
      findings.add(new Finding(Finding.Severity.WARNING, host, Validator.YARN,
          EnergyKeys.PORT.name(), y.get(EnergyKeys.PORT.name(), "0"), "is ephemeral under"
          + " NodeManager recovery: after a restart the collector answers on a new port, and a"
          + " task that outlived the restart gets 'Connection refused' and reports no joules"));
    }
  }

  /**
   * Warning: the NodeManager's shuffle reads mapreduce.shuffle.port after MapReduce has added
   * mapred-default.xml (13562) and mapred-site.xml to every configuration, so a value in
   * yarn-site.xml alone is overridden.
   */
  private void shufflePort(String host) {
    String key = "mapreduce.shuffle.port";
    String inYarn = confs.conf(host, Validator.YARN).getRaw(key);
    String inMapred = confs.conf(host, Validator.MAPRED).getRaw(key);
    if (inYarn != null && !inYarn.equals(inMapred)) {
      findings.add(new Finding(Finding.Severity.WARNING, host, Validator.YARN, key, inYarn,
          "is overridden in the NodeManager by mapred-default.xml's " + (inMapred == null
          ? "13562" : inMapred + " (mapred-site.xml)") + ", which Hadoop loads after"
          + " yarn-site.xml; set it in mapred-site.xml"));
    }
  }

  private static int port(String address) {
    try {
      return NetUtils.createSocketAddr(address, 0).getPort();
    } catch (IllegalArgumentException e) {
      return -1;
    }
  }

  /** Warning: Hadoop's default directories live under /tmp, which a reboot may wipe. */
  private void dataDirs(String host, boolean isMaster) {
    List<String[]> keys = new ArrayList<>();
    keys.add(new String[] {Validator.YARN, "yarn.nodemanager.local-dirs"});
    keys.add(isMaster ? new String[] {Validator.HDFS, "dfs.namenode.name.dir"}
        : new String[] {Validator.HDFS, "dfs.datanode.data.dir"});
    for (String[] fileKey : keys) {
      Configuration conf = confs.conf(host, fileKey[0]);
      if (conf.get("hadoop.tmp.dir") == null) {
        // hdfs-site and yarn-site do not carry core-site's hadoop.tmp.dir: resolve against it
        conf = new Configuration(conf);
        conf.set("hadoop.tmp.dir", confs.conf(host, Validator.CORE)
            .get("hadoop.tmp.dir", "/tmp/hadoop-${user.name}"));
      }
      String dirs = conf.get(fileKey[1], "");
      for (String dir : dirs.split(",")) {
        String path = dir.trim().replaceFirst("^file://", "");
        if (path.startsWith("/tmp/")) {
          findings.add(new Finding(Finding.Severity.WARNING, host, fileKey[0], fileKey[1],
              confs.conf(host, fileKey[0]).getRaw(fileKey[1]), "is under /tmp (" + path
              + "): a reboot may wipe it; render with the inventory's data-dirs"));
          break;
        }
      }
    }
  }
}

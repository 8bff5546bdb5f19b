package org.fawnpack.configs;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;

/**
 * The rules for rack awareness ({@link TopologyTable}), checked on every host (and client/) whose
 * core-site.xml selects Hadoop's TableMapping:
 *
 * <ul>
 * <li>the table must be named, by an absolute path, and be in the host's directory (render puts
 *     it there, and the directory is installed as the configuration directory); without it
 *     TableMapping puts every host in /default-rack (error);</li>
 * <li>every host of the cluster must have a row: a missing one lands in /default-rack, a domain
 *     of its own that HDFS happily fills with replicas (error);</li>
 * <li>racks at different depths: the NameNode refuses the DataNode (error);</li>
 * <li>on the master, fewer IP rows than hosts: the NameNode looks DataNodes up by IP, so a host
 *     known only by a name that resolves lands in /default-rack (warning);</li>
 * <li>on the master, {@code dfs.replication} above 1 while every DataNode is in one domain:
 *     every replica of a block fails together (warning).</li>
 * </ul>
 */
final class TopologyRules {
  private final ClusterConfs confs;
  private final List<Finding> findings = new ArrayList<>();

  private TopologyRules(ClusterConfs confs) {
    this.confs = confs;
  }

  static List<Finding> check(ClusterConfs confs, String master) {
    TopologyRules rules = new TopologyRules(confs);
    List<String> dirs = new ArrayList<>(confs.hostNames());
    if (confs.hasClient()) {
      dirs.add(RenderedCluster.CLIENT_DIR);
    }
    for (String host : dirs) {
      Map<String, String> table = rules.table(host);
      if (table != null && host.equals(master)) {
        rules.addresses(master, table);
        rules.replication(master, table);
      }
    }
    return rules.findings;
  }

  /** The host's table, checked; null when it uses no table or the table cannot be read. */
  private Map<String, String> table(String host) {
    Configuration core = confs.conf(host, Validator.CORE);
    if (!TopologyTable.TABLE_MAPPING.equals(core.getTrimmed(TopologyTable.MAPPING_KEY))) {
      return null;
    }
    String path = core.getTrimmed(TopologyTable.TABLE_KEY, "");
    if (!path.startsWith("/")) {
      error(host, Validator.CORE, TopologyTable.TABLE_KEY, path, path.isEmpty()
          ? "TableMapping without a table: every host lands in /default-rack"
          : "is relative: TableMapping reads it from each daemon's working directory; give the"
          + " absolute path where the configuration directory is installed");
      return null;
    }
    String name = path.substring(path.lastIndexOf('/') + 1);
    String text = confs.plainFile(host, name);
    if (text == null) {
      error(host, name, "(file)", confs.pathOf(host, name).toString(), "is missing, while "
          + Validator.CORE + " names it (" + TopologyTable.TABLE_KEY + "=" + path + "): when"
          + " this directory is installed TableMapping finds no table and puts every host in"
          + " /default-rack, so HDFS may keep all replicas of a block in one box");
      return null;
    }
    Map<String, String> table = TopologyTable.parse(text);
    Set<String> missing = new LinkedHashSet<>(confs.hostNames());
    missing.removeAll(table.keySet());
    if (!missing.isEmpty()) {
      error(host, name, "host", String.join(",", missing), "no row in "
          + confs.pathOf(host, name) + ": TableMapping puts such a host in /default-rack, a"
          + " domain of its own as far as HDFS knows; render again or add it");
    }
    depths(host, name, table);
    return table;
  }

  private void depths(String host, String name, Map<String, String> table) {
    Set<Integer> depths = new LinkedHashSet<>();
    table.values().forEach(rack -> depths.add(FailureDomains.depth(rack)));
    if (depths.size() > 1) {
      error(host, name, "racks", String.join(",", new LinkedHashSet<>(table.values())), "racks at"
          + " different depths " + depths + ": the NameNode refuses a DataNode at another depth"
          + " than the first (InvalidTopologyException)");
    }
  }

  /** Warning: the NameNode and ResourceManager resolve names to IPs before the lookup. */
  private void addresses(String master, Map<String, String> table) {
    long ips = table.keySet().stream().filter(HostAddresses::isIpv4).count();
    int hosts = confs.hostNames().size();
    if (ips < hosts) {
      warn(master, TopologyTable.FILE, "addresses", ips + " of " + hosts, "the table maps "
          + ips + " of the " + hosts + " hosts by IP address: TableMapping turns a name that"
          + " resolves into its IP before the lookup and the NameNode asks by IP, so such hosts"
          + " land in /default-rack; give hosts an address: in the inventory");
    }
  }

  /** Warning: with every DataNode in one domain, replicas cannot be spread. */
  private void replication(String master, Map<String, String> table) {
    Configuration hdfs = confs.conf(master, Validator.HDFS);
    int replication = hdfs.getInt("dfs.replication", 3);
    Set<String> racks = new LinkedHashSet<>();
    confs.workers().forEach(w -> racks.add(table.getOrDefault(w, FailureDomains.DEFAULT_RACK)));
    if (replication > 1 && racks.size() == 1) {
      warn(master, Validator.HDFS, "dfs.replication", Integer.toString(replication), "every"
          + " DataNode is in " + racks.iterator().next() + " (" + TopologyTable.FILE + "): all "
          + replication + " replicas of a block share one failure domain, and a box's supply or"
          + " switch takes them all; spread the DataNodes over two domains or more");
    }
  }

  private void error(String host, String file, String key, String value, String message) {
    findings.add(new Finding(Finding.Severity.ERROR, host, file, key, value, message));
  }

  private void warn(String host, String file, String key, String value, String message) {
    findings.add(new Finding(Finding.Severity.WARNING, host, file, key, value, message));
  }
}

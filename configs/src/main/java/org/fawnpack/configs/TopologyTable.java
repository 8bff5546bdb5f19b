package org.fawnpack.configs;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.net.TableMapping;

/**
 * The rack table Hadoop's own {@link TableMapping} reads, so the NameNode spreads a block's
 * replicas over failure domains ({@link FailureDomains}) and YARN knows rack locality. One line
 * per host name and one per known IPv4 address, each followed by its rack:
 *
 * <pre>
 * # comment lines start with '#'
 * edison-01 /box1
 * 10.0.1.11 /box1
 * </pre>
 *
 * Both are needed: the NameNode asks for a DataNode by its IP, and TableMapping turns any name
 * that resolves into an IP before looking it up; a name is found only when it does not resolve.
 * Rendered only when the cluster has two or more domains: with one, Hadoop's default (every host
 * in /default-rack) already says everything.
 */
final class TopologyTable {
  /** The table's file name, in each host's directory and in client/. */
  static final String FILE = "topology.table";
  static final String MAPPING_KEY =
      CommonConfigurationKeysPublic.NET_TOPOLOGY_NODE_SWITCH_MAPPING_IMPL_KEY;
  static final String TABLE_KEY = CommonConfigurationKeysPublic.NET_TOPOLOGY_TABLE_MAPPING_FILE_KEY;
  static final String TABLE_MAPPING = TableMapping.class.getName();

  private TopologyTable() {}

  /** The table for an inventory, or null when it has fewer than two failure domains. */
  static String render(Inventory inventory) {
    Map<String, String> domains = inventory.domains();
    if (FailureDomains.distinct(domains) < 2) {
      return null;
    }
    StringBuilder t = new StringBuilder();
    t.append("# Rendered by `fawn profile render` from ").append(inventory.file())
        .append(": each host's failure domain (docs/profiles.md, Failure domains).\n")
        .append("# Hadoop's TableMapping: a host name or IP address, then its rack. The NameNode"
            + " looks DataNodes up by IP.\n");
    for (Inventory.Host host : inventory.hosts()) {
      String rack = domains.get(host.name());
      t.append(host.name()).append(' ').append(rack).append('\n');
      if (host.address() != null) {
        t.append(host.address()).append(' ').append(rack).append('\n');
      }
    }
    return t.toString();
  }

  /** Where core-site.xml points TableMapping: the table as installed on every host. */
  static String installedPath(Inventory inventory) {
    return inventory.confDir().replaceAll("/+$", "") + "/" + FILE;
  }

  /** The two core-site.xml properties that make Hadoop read the table. */
  static SiteFile configure(SiteFile core, Inventory inventory) {
    return core
        .set(MAPPING_KEY, TABLE_MAPPING, "racks from the failure domains of the inventory (boxes"
            + " sharing a supply, or domain:), so HDFS puts a block's replicas in different"
            + " domains (Hadoop's default puts every host in /default-rack)")
        .set(TABLE_KEY, installedPath(inventory), "the rendered " + FILE + " where this directory"
            + " is installed (the inventory's hadoop-conf-dir); absolute, as TableMapping reads it"
            + " relative to the daemon's working directory otherwise");
  }

  /** Parses a table as TableMapping does: trimmed lines, '#' comments, two columns. */
  static Map<String, String> parse(String text) {
    Map<String, String> rows = new LinkedHashMap<>();
    for (String line : text.split("\n")) {
      String l = line.trim();
      if (l.isEmpty() || l.charAt(0) == '#') {
        continue;
      }
      String[] columns = l.split("\\s+");
      if (columns.length == 2) {
        rows.put(columns[0], columns[1]);
      }
    }
    return rows;
  }
}

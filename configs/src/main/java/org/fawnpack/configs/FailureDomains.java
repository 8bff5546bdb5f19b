package org.fawnpack.configs;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Each host's failure domain: the HDFS rack path of the hosts that go down together. Seed 003
 * §3.2 puts seven Edisons in a box on one bench supply and one switch, so the box, not the board,
 * is what fails; HDFS keeps a block's replicas in different racks only if it is told the racks.
 *
 * <p>The rule, in order:
 *
 * <ol>
 * <li>the host's {@code domain:} in the inventory, when it has one;</li>
 * <li>otherwise {@code /<meter>} when the host is on a <em>shared supply</em>: a meter of a
 *     supply type ({@link #SUPPLY_TYPES}: a bench supply or a UPS, which feed whatever is plugged
 *     into them) that two or more hosts list. A PDU outlet, a board's own sensor or a power model
 *     belongs to one host and says nothing about what else fails with it;</li>
 * <li>otherwise Hadoop's own {@value #DEFAULT_RACK}.</li>
 * </ol>
 *
 * A host on two shared supplies is refused (which one is its box is the operator's call), and so
 * are domains of different depths ({@code /box1} beside {@code /dc1/box2}): Hadoop's
 * NetworkTopology throws InvalidTopologyException when a DataNode registers at another depth.
 */
final class FailureDomains {
  /** Hadoop's NetworkTopology.DEFAULT_RACK: where an unmapped host lands. */
  static final String DEFAULT_RACK = "/default-rack";
  /** Meter types that measure a supply feeding several hosts (docs/energy.md). */
  static final Set<String> SUPPLY_TYPES = Set.of("scpi", "apcupsd");
  /**
   * A rack path: '/'-separated non-empty levels, no whitespace (the table file is split on it)
   * and no trailing '/'.
   */
  private static final Pattern FORM = Pattern.compile("(/[^/\\s]+)+");

  private FailureDomains() {}

  /** Checks an explicit {@code domain:}; {@code key} is its dotted path in the inventory. */
  static String checkForm(String file, String key, String host, String domain) {
    if (!FORM.matcher(domain).matches()) {
      throw new ConfigFileException(file, key, domain, "host " + host + ": a failure domain is an"
          + " HDFS rack path: starts with '/', levels without spaces, no trailing '/' (e.g."
          + " /box1 or /room2/box1)");
    }
    return domain;
  }

  /**
   * Every host's domain, in inventory order.
   *
   * @throws ConfigFileException naming the inventory file and host, for a host on two shared
   *     supplies without a {@code domain:}, or domains of different depths
   */
  static Map<String, String> of(Inventory inventory) {
    Map<String, String> domains = new LinkedHashMap<>();
    for (Inventory.Host host : inventory.hosts()) {
      domains.put(host.name(), host.domain() != null ? host.domain() : derive(inventory, host));
    }
    sameDepth(inventory.file(), domains);
    return domains;
  }

  /** The number of distinct domains: one means a flat cluster, as Hadoop assumes by default. */
  static int distinct(Map<String, String> domains) {
    return (int) domains.values().stream().distinct().count();
  }

  private static String derive(Inventory inventory, Inventory.Host host) {
    List<String> supplies = new ArrayList<>();
    for (String meter : host.meters()) {
      String type = inventory.meters().getOrDefault(meter, Map.of()).get("type");
      if (SUPPLY_TYPES.contains(type) && inventory.hostsOf(meter).size() >= 2) {
        supplies.add(meter);
      }
    }
    if (supplies.size() > 1) {
      throw new ConfigFileException(inventory.file(), "hosts." + host.name() + ".meters",
          String.join(",", supplies), "host " + host.name() + " is on " + supplies.size()
          + " shared supplies, so its failure domain is ambiguous: give it a domain: (e.g. /"
          + supplies.get(0) + ")");
    }
    return supplies.isEmpty() ? DEFAULT_RACK : "/" + supplies.get(0);
  }

  private static void sameDepth(String file, Map<String, String> domains) {
    String firstHost = null;
    for (Map.Entry<String, String> e : domains.entrySet()) {
      if (firstHost == null) {
        firstHost = e.getKey();
      } else if (depth(e.getValue()) != depth(domains.get(firstHost))) {
        throw new ConfigFileException(file, "hosts." + e.getKey() + ".domain", e.getValue(),
            "host " + e.getKey() + ": " + depth(e.getValue()) + " level(s), but " + firstHost
            + "'s " + domains.get(firstHost) + " has " + depth(domains.get(firstHost))
            + ": Hadoop refuses racks at different depths (InvalidTopologyException when a"
            + " DataNode registers); give every host a domain of the same depth");
      }
    }
  }

  /** The levels of a rack path: 1 for /box1, 2 for /room2/box1. */
  static int depth(String domain) {
    return (int) domain.chars().filter(c -> c == '/').count();
  }
}

package org.fawnpack.configs;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The {@code address:} of a hosts entry: each host's IPv4 address, for the rack table. Hadoop's
 * TableMapping is a CachedDNSToSwitchMapping, which turns every name it is asked about into an
 * IP address before it looks in the table, and the NameNode asks with the DataNode's IP; a table
 * of names alone therefore puts every host whose name resolves into /default-rack.
 *
 * <p>An entry with a host range gives an address range of the same length:
 * {@code {host: "edison-[01-07]", address: "10.0.1.[11-17]"}}.
 */
final class HostAddresses {
  private static final String OCTET = "(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";
  /** Dotted quad without leading zeros: Hadoop's lookup key is InetAddress.getHostAddress(). */
  private static final Pattern IPV4 = Pattern.compile("(" + OCTET + "\\.){3}" + OCTET);

  private HostAddresses() {}

  /** One address per name of the entry (all null when the entry has no {@code address:}). */
  static List<String> of(YamlNode entry, List<String> names) {
    if (!entry.has("address")) {
      return Collections.nCopies(names.size(), null);
    }
    String pattern = entry.string("address");
    List<String> addresses = new ArrayList<>(InventoryReader.ranges(entry, "address", pattern));
    if (addresses.size() != names.size()) {
      throw new ConfigFileException(entry.file(), entry.key("address"), pattern, addresses.size()
          + " address(es) for " + names.size() + " host(s) (" + entry.string("host") + "): give"
          + " a range of the same length, e.g. 10.0.1.[11-17] for edison-[01-07]");
    }
    for (int i = 0; i < addresses.size(); i++) {
      if (!isIpv4(addresses.get(i))) {
        throw new ConfigFileException(entry.file(), entry.key("address"), addresses.get(i),
            "host " + names.get(i) + ": not an IPv4 address as Hadoop prints it (a.b.c.d, no"
            + " leading zeros)");
      }
    }
    return addresses;
  }

  static boolean isIpv4(String s) {
    return IPV4.matcher(s).matches();
  }
}

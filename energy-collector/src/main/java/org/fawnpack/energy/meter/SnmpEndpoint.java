package org.fawnpack.energy.meter;

import java.net.InetAddress;
import java.net.UnknownHostException;
import org.snmp4j.smi.UdpAddress;

/**
 * The agent's {@code address} setting: {@code host}, {@code host:port}, {@code [v6]:port} or a
 * bare IPv6 literal. Parsed at construction so a typo fails NodeManager start; resolved only when
 * read, so a DNS hiccup at boot costs samples, not the whole service.
 */
record SnmpEndpoint(String host, int port) {

  static final int DEFAULT_PORT = 161;

  static SnmpEndpoint parse(String key, String value) {
    String host = value;
    String port = null;
    if (value.startsWith("[")) {
      int end = value.indexOf(']');
      if (end < 0 || (end + 1 < value.length() && value.charAt(end + 1) != ':')) {
        throw bad(key, value);
      }
      host = value.substring(1, end);
      port = end + 1 < value.length() ? value.substring(end + 2) : null;
    } else if (value.indexOf(':') >= 0 && value.indexOf(':') == value.lastIndexOf(':')) {
      host = value.substring(0, value.indexOf(':'));
      port = value.substring(value.indexOf(':') + 1);
    }
    if (host.isEmpty() || host.chars().anyMatch(c -> Character.isWhitespace(c) || c == '/')) {
      throw bad(key, value);
    }
    return new SnmpEndpoint(host, port == null ? DEFAULT_PORT : parsePort(key, value, port));
  }

  private static int parsePort(String key, String value, String port) {
    try {
      int parsed = Integer.parseInt(port);
      if (parsed >= 1 && parsed <= 65535) {
        return parsed;
      }
    } catch (NumberFormatException e) {
      // fall through to the message naming the key
    }
    throw new EnergyConfigException(key, "must have a port between 1 and 65535, was '" + value
        + "'");
  }

  private static EnergyConfigException bad(String key, String value) {
    return new EnergyConfigException(key, "must be host, host:port or [ipv6]:port, was '" + value
        + "'");
  }

  UdpAddress resolve() throws MeterException {
    try {
      return new UdpAddress(InetAddress.getByName(host), port);
    } catch (UnknownHostException e) {
      throw new MeterException("unresolved-host", "cannot resolve SNMP agent host '" + host
          + "': " + e.getMessage(), e);
    }
  }

  @Override
  public String toString() {
    return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
  }
}

package org.fawnpack.energy.meter;


/**
 * The {@code host[:port]} of a meter reached over TCP (SCPI supplies, apcupsd). An IPv6 literal
 * takes brackets when it has a port ({@code [fe80::1]:5025}); without brackets and with more than
 * one colon the whole value is taken as the host, so {@code ::1} still means the default port.
 */
record TcpMeterAddress(String host, int port) {

  /**
   * Parses {@code value}, the value of {@code key}; errors name the key and the value.
   *
   * @throws EnergyConfigException when the host is empty or the port is not 1..65535
   */
  static TcpMeterAddress parse(String key, String value, int defaultPort) {
    String host = value.trim();
    String portText = null;
    if (host.startsWith("[")) {
      int close = host.indexOf(']');
      if (close < 0) {
        throw bad(key, value, "has '[' without ']'");
      }
      String rest = host.substring(close + 1);
      host = host.substring(1, close);
      if (!rest.isEmpty()) {
        if (!rest.startsWith(":")) {
          throw bad(key, value, "has text after ']' that is not ':port'");
        }
        portText = rest.substring(1);
      }
    } else if (host.indexOf(':') >= 0 && host.indexOf(':') == host.lastIndexOf(':')) {
      int colon = host.indexOf(':');
      portText = host.substring(colon + 1);
      host = host.substring(0, colon);
    }
    if (host.isEmpty() || host.chars().anyMatch(Character::isWhitespace)) {
      throw bad(key, value, "needs a host name or address without spaces");
    }
    return new TcpMeterAddress(host, portText == null ? defaultPort : port(key, value, portText));
  }

  private static int port(String key, String value, String portText) {
    try {
      int port = Integer.parseInt(portText);
      if (port >= 1 && port <= 65535) {
        return port;
      }
    } catch (NumberFormatException e) {
      // reported below together with the range
    }
    throw bad(key, value, "needs a port between 1 and 65535, was '" + portText + "'");
  }

  private static EnergyConfigException bad(String key, String value, String why) {
    return new EnergyConfigException(key, "must be host[:port]; '" + value + "' " + why);
  }

  @Override
  public String toString() {
    return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
  }
}

package org.fawnpack.kv.hadoop;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Whether a ring member's host is this machine (a map reads from members here first). */
final class LocalHosts {
  private static final Map<String, Boolean> KNOWN = new ConcurrentHashMap<>();

  private LocalHosts() {}

  static boolean isLocal(String host) {
    return KNOWN.computeIfAbsent(host, LocalHosts::resolve);
  }

  private static boolean resolve(String host) {
    try {
      InetAddress address = InetAddress.getByName(host);
      return address.isLoopbackAddress() || NetworkInterface.getByInetAddress(address) != null;
    } catch (UnknownHostException | SocketException e) {
      return false; // an unknown host is not this one
    }
  }
}

package org.fawnpack.energy.service;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Distinct history-file names for collectors sharing one JVM (the NodeManagers of a mini cluster
 * all run on "localhost"): the first keeps the host name, the next get {@code <host>-2},
 * {@code <host>-3}, ... so their files never race for one name.
 */
final class NodeNames {
  private static final Map<String, AtomicInteger> CLAIMED = new ConcurrentHashMap<>();

  private NodeNames() {
  }

  static String claim(String host) {
    int ordinal = CLAIMED.computeIfAbsent(host, h -> new AtomicInteger()).incrementAndGet();
    return ordinal == 1 ? host : host + "-" + ordinal;
  }
}

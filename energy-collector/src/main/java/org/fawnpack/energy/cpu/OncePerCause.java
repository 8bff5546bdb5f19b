package org.fawnpack.energy.cpu;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** Remembers which causes were already logged, so a per-second sampler logs each problem once. */
final class OncePerCause {
  private final Set<String> seen = ConcurrentHashMap.newKeySet();

  /** True the first time this cause is seen. Causes are kinds of problem, not per container. */
  boolean first(String cause) {
    return seen.add(cause);
  }
}

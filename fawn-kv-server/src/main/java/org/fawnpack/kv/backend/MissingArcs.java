package org.fawnpack.kv.backend;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Ring;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Why a request for an arc the ring has this back-end serve finds no open file: an expected
 * state, not a fault. Back from a crash, a back-end serves none of its old files ({@link
 * CleanShutdown}); the rings name it until the coordinator publishes the epoch that marks it
 * down (at once), and it serves the arc again only once it has copied it afresh. The request
 * is refused (applied nowhere) and its client asks again. Logged once per arc and epoch, at
 * INFO, without a stack trace.
 */
final class MissingArcs {
  private static final Logger LOG = LoggerFactory.getLogger(MissingArcs.class);

  private final String id;
  private final BooleanSupplier crashed;
  /** Per arc end, the last epoch in which a request without a file was logged. */
  private final Map<Long, Long> logged = new ConcurrentHashMap<>();

  MissingArcs(String id, BooleanSupplier crashed) {
    this.id = id;
    this.crashed = crashed;
  }

  /** The refusal's message for a request of {@code chain}'s arc routed by {@code current}. */
  String refusal(Ring current, Chain chain, String what) {
    String why = "backend " + id + " has no file to serve " + chain.range() + " in epoch "
        + current.epoch() + (crashed.getAsBoolean() ? " (back from a crash, it serves none of"
            + " its old files until it has copied them afresh)" : " (it holds no copy of it yet)");
    Long end = chain.range().endInclusive();
    if (!Long.valueOf(current.epoch()).equals(logged.put(end, current.epoch()))) {
      LOG.info("{}; refusing its {} until a new epoch moves them (clients ask again)", why,
          what);
    }
    return why;
  }
}

package org.fawnpack.kv.coord;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.ring.Ring;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The coordinator's first look at each check: which registrations count as present for the
 * ring. A member back from a crash while it still serves arcs counts as gone (fail-stop: its
 * files may lack writes its chains hold), and so does one registered from another host or
 * failure domain than the ring has it on (chains are placed by both). Of those present, the
 * ones serving at a new port are {@code moved}.
 *
 * @param registered ids of the back-ends present
 * @param moved present ring members (not down) that registered at another port
 */
record RollCall(Set<String> registered, List<Member> moved) {
  private static final Logger LOG = LoggerFactory.getLogger(RollCall.class);

  static RollCall of(String coordinator, Ring ring,
      List<BackendRegistration.Registered> registrations) {
    Set<String> registered = new TreeSet<>();
    List<Member> moved = new ArrayList<>();
    for (BackendRegistration.Registered r : registrations) {
      Member m = r.member();
      Member inRing = ring.member(m.id());
      if (inRing != null && !ring.isDown(m.id()) && r.crashed() && ring.servesAnyArc(m.id())
          && !ring.orphans().isSource(m.id())) { // a source serves its own file: it may
        // (One brought back serves nothing until it has copied its arcs: it may stay.)
        LOG.warn("coordinator {}: back-end {} restarted after a crash; counted as gone",
            coordinator, m.id());
        continue;
      }
      if (inRing != null && (!inRing.host().equals(m.host())
          || !inRing.domain().equals(m.domain()))) {
        LOG.error("coordinator {}: back-end {} registered from host {} in domain {} but is in"
            + " the ring on host {} in domain {}; it must join under a new id, not counted as"
            + " registered", coordinator, m.id(), m.host(), m.domain(), inRing.host(),
            inRing.domain());
        continue;
      }
      registered.add(m.id());
      if (inRing != null && !ring.isDown(m.id()) && inRing.port() != m.port()) {
        moved.add(m);
      }
    }
    return new RollCall(registered, moved);
  }
}

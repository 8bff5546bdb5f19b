package org.fawnpack.kv.hadoop;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.store.KeyRange;
import org.fawnpack.kv.wire.ConnectionPool;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.MessageType;
import org.fawnpack.kv.wire.StatsReport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The live bytes of every arc, from its members' STATS at submission: log bytes times the
 * share of the writes still live (live keys over the arc's last sequence number, which counts
 * the records written; the cluster does not compact, so the rest are dead versions). The tail's
 * figure is used, or another member's when the tail is silent. The tail's last sequence number
 * is each arc's cut for a point-in-time read ({@link ArcSize#UNKNOWN_SEQUENCE} when the tail is
 * silent).
 */
final class ArcSizes {
  private static final Logger LOG = LoggerFactory.getLogger(ArcSizes.class);

  private ArcSizes() {}

  static List<ArcSize> measure(Ring ring, ConnectionPool pool, Duration deadline) {
    Map<KeyRange, Long> bytes = new HashMap<>();
    Map<KeyRange, Boolean> fromTail = new HashMap<>();
    Map<KeyRange, Long> tailSequence = new HashMap<>();
    for (Member m : ring.members()) {
      if (ring.isDown(m.id())) {
        continue;
      }
      StatsReport report;
      try {
        Frame reply = pool.to(m).call(MessageType.STATS, ring.epoch(), null, deadline);
        report = StatsReport.decode(reply);
      } catch (IOException e) {
        LOG.warn("back-end {} gave no STATS ({}); its arcs are sized by other members", m,
            e.getMessage());
        continue;
      }
      for (StatsReport.Arc arc : report.arcs()) {
        boolean tail = arc.role() == StatsReport.Role.TAIL
            || arc.role() == StatsReport.Role.ALONE;
        if (tail || !Boolean.TRUE.equals(fromTail.get(arc.range()))) {
          bytes.put(arc.range(), liveBytes(arc));
          fromTail.put(arc.range(), tail);
        }
        if (tail) {
          tailSequence.put(arc.range(), arc.lastSequence());
        }
      }
    }
    List<ArcSize> sizes = new ArrayList<>();
    for (Chain chain : ring.chains()) {
      Long size = bytes.get(chain.range());
      if (size == null) {
        LOG.warn("no member reported arc {}; its split is sized 1 byte", chain.range());
      }
      sizes.add(new ArcSize(chain.range(), size == null ? 1 : size, hostsOf(chain, ring),
          tailSequence.getOrDefault(chain.range(), ArcSize.UNKNOWN_SEQUENCE)));
    }
    return sizes;
  }

  static long liveBytes(StatsReport.Arc arc) {
    if (arc.keys() == 0) {
      return 1;
    }
    long records = arc.recordsEstimate(); // fewer than writes once a compaction ran
    double live = records <= arc.keys() ? 1 : (double) arc.keys() / records;
    return Math.max(1, (long) (arc.logBytes() * live));
  }

  /** The chain's live hosts, the tail's first, each once. */
  private static List<String> hostsOf(Chain chain, Ring ring) {
    Set<String> hosts = new LinkedHashSet<>();
    if (!chain.isEmpty()) {
      hosts.add(chain.tail().host());
    }
    for (Member m : chain.members()) {
      if (!ring.isDown(m.id())) {
        hosts.add(m.host());
      }
    }
    return List.copyOf(hosts);
  }
}

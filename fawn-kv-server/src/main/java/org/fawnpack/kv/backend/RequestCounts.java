package org.fawnpack.kv.backend;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import org.fawnpack.kv.energy.NodeEnergy;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.wire.StatsReport.Arc;
import org.fawnpack.kv.wire.StatsReport.Role;
import org.fawnpack.kv.wire.StatsReport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The request counts a back-end keeps, and its STATS report built from them and its arcs. */
final class RequestCounts {
  private static final Logger LOG = LoggerFactory.getLogger(RequestCounts.class);

  final long started = System.nanoTime();
  final LongAdder gets = new LongAdder();
  final LongAdder writes = new LongAdder();
  final LongAdder chainWrites = new LongAdder();
  /** Retried writes answered for their first try instead of applied again. */
  final LongAdder retriesAnswered = new LongAdder();

  /** The report of a back-end ({@code self}) holding {@code arcs}; null: compaction off. */
  StatsReport report(Member self, Collection<ArcStore> arcs, NodeEnergy energy,
      long bytesCopiedIn, ArcCompactions compactions) {
    List<Arc> described = new ArrayList<>();
    for (ArcStore arc : arcs) {
      Chain chain = arc.chain();
      int at = chain.members().indexOf(self);
      Role role = at < 0 ? Role.COPYING : chain.members().size() == 1 ? Role.ALONE
          : at == 0 ? Role.HEAD : at == chain.members().size() - 1 ? Role.TAIL : Role.MIDDLE;
      var stats = arc.store().stats();
      described.add(new Arc(chain.range(), role, stats.liveKeys(), stats.logBytes(),
          stats.lastSequence(), arc.store().historyFrom()));
    }
    long microjoules;
    try {
      microjoules = energy.microjoules();
    } catch (IOException e) {
      LOG.warn("no energy reading from {}: {}", energy, e.getMessage());
      microjoules = -1;
    }
    return new StatsReport((System.nanoTime() - started) / 1_000_000, gets.sum(),
        writes.sum(), chainWrites.sum(), described, microjoules, energy.estimated(),
        bytesCopiedIn, compactions == null ? 0 : compactions.compactions.sum(),
        compactions == null ? 0 : compactions.bytesReclaimed.sum());
  }
}

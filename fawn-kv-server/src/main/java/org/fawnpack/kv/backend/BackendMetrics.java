package org.fawnpack.kv.backend;

import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.fawnpack.kv.store.Journal;
import org.fawnpack.kv.wire.StatsReport;

/** {@link BackendMetricsMXBean} over a back-end's counts and a fresh {@link StatsReport}. */
final class BackendMetrics implements BackendMetricsMXBean {
  private final String id;
  private final RequestCounts counts;
  private final Supplier<StatsReport> report;
  private final LongSupplier epoch;
  private final LongSupplier bytesCopiedIn;
  private final Journal journal;

  BackendMetrics(String id, RequestCounts counts, Supplier<StatsReport> report,
      LongSupplier epoch, LongSupplier bytesCopiedIn, Journal journal) {
    this.journal = journal;
    this.id = id;
    this.counts = counts;
    this.report = report;
    this.epoch = epoch;
    this.bytesCopiedIn = bytesCopiedIn;
  }

  @Override
  public String getId() {
    return id;
  }

  @Override
  public long getEpoch() {
    return epoch.getAsLong();
  }

  @Override
  public long getUptimeMs() {
    return (System.nanoTime() - counts.started) / 1_000_000;
  }

  @Override
  public long getGets() {
    return counts.gets.sum();
  }

  @Override
  public long getWrites() {
    return counts.writes.sum();
  }

  @Override
  public long getChainWrites() {
    return counts.chainWrites.sum();
  }

  @Override
  public long getRetriesAnswered() {
    return counts.retriesAnswered.sum();
  }

  @Override
  public int getArcs() {
    return report.get().arcs().size();
  }

  @Override
  public int getArcsAsHead() {
    return count(StatsReport.Role.HEAD) + count(StatsReport.Role.ALONE);
  }

  @Override
  public int getArcsAsTail() {
    return count(StatsReport.Role.TAIL) + count(StatsReport.Role.ALONE);
  }

  @Override
  public int getArcsCopying() {
    return count(StatsReport.Role.COPYING);
  }

  private int count(StatsReport.Role role) {
    return (int) report.get().arcs().stream().filter(a -> a.role() == role).count();
  }

  @Override
  public long getKeysAsHead() {
    return report.get().arcs().stream().filter(a -> a.role() == StatsReport.Role.HEAD
        || a.role() == StatsReport.Role.ALONE).mapToLong(StatsReport.Arc::keys).sum();
  }

  @Override
  public long getLogBytes() {
    return report.get().arcs().stream().mapToLong(StatsReport.Arc::logBytes).sum();
  }

  @Override
  public long getBytesCopiedIn() {
    return bytesCopiedIn.getAsLong();
  }

  @Override
  public long getCompactions() {
    return report.get().compactions();
  }

  @Override
  public long getBytesReclaimed() {
    return report.get().bytesReclaimed();
  }

  @Override
  public long getJournalWrites() {
    return journal == null ? 0 : journal.writes();
  }

  @Override
  public long getJournalForces() {
    return journal == null ? 0 : journal.forces();
  }
}

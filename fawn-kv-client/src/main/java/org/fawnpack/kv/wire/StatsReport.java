package org.fawnpack.kv.wire;

import java.util.ArrayList;
import java.util.List;
import org.fawnpack.kv.store.KeyRange;

/**
 * A back-end's answer to STATS, for {@code fawn kv stats}: the requests it served since it
 * started and, per arc it holds, its role in the chain, live keys, log bytes and last sequence
 * number; and its node's energy so far in microjoules (-1 when not metered), from the energy
 * collector or a power model ({@code energyEstimated}); and the bytes of arc files it received
 * by whole-file transfer since it started (joins, re-replication); and the compactions of its
 * arc files since it started, with the bytes they gave back.
 */
public record StatsReport(long uptimeMs, long gets, long writes, long chainWrites,
    List<Arc> arcs, long microjoules, boolean energyEstimated, long bytesCopiedIn,
    long compactions, long bytesReclaimed) {

  /** What a back-end is to one arc. */
  public enum Role { HEAD, MIDDLE, TAIL, ALONE, COPYING }

  /**
   * One arc a back-end holds; {@code historyFrom}: the lowest cut its file answers (a
   * compaction, split or merge dropped versions below it; 0 when none did).
   */
  public record Arc(KeyRange range, Role role, long keys, long logBytes, long lastSequence,
      long historyFrom) {

    /**
     * About how many records its file holds: one per write, except that below
     * {@code historyFrom} at most one per live key is left.
     */
    public long recordsEstimate() {
      return historyFrom == 0 ? lastSequence : keys + lastSequence - historyFrom;
    }
  }

  public StatsReport {
    arcs = List.copyOf(arcs);
  }

  /** The report as a STATS reply's payload. */
  public byte[] encode() {
    Frame.Payload payload = new Frame.Payload().addLong(uptimeMs).addLong(gets).addLong(writes)
        .addLong(chainWrites).addLong(arcs.size());
    for (Arc a : arcs) {
      payload.addLong(a.range().startExclusive()).addLong(a.range().endInclusive())
          .addLong(a.role().ordinal()).addLong(a.keys()).addLong(a.logBytes())
          .addLong(a.lastSequence()).addLong(a.historyFrom());
    }
    return payload.addLong(microjoules).addLong(energyEstimated ? 1 : 0)
        .addLong(bytesCopiedIn).addLong(compactions).addLong(bytesReclaimed).toBytes();
  }

  /** The report in a STATS reply's payload. */
  public static StatsReport decode(Frame reply) throws MalformedFrameException {
    Frame.Fields f = reply.fields();
    long uptime = f.nextLong();
    long gets = f.nextLong();
    long writes = f.nextLong();
    long chainWrites = f.nextLong();
    long count = f.nextLong();
    if (count < 0 || count > 1 << 20) {
      throw new MalformedFrameException("a STATS reply with " + count + " arcs");
    }
    List<Arc> arcs = new ArrayList<>();
    for (long i = 0; i < count; i++) {
      KeyRange range = new KeyRange(f.nextLong(), f.nextLong());
      long role = f.nextLong();
      if (role < 0 || role >= Role.values().length) {
        throw new MalformedFrameException("a STATS reply with role " + role);
      }
      arcs.add(new Arc(range, Role.values()[(int) role], f.nextLong(), f.nextLong(),
          f.nextLong(), f.nextLong()));
    }
    long microjoules = f.nextLong();
    boolean estimated = f.nextLong() != 0;
    long bytesCopiedIn = f.nextLong();
    long compactions = f.nextLong();
    long bytesReclaimed = f.nextLong();
    f.end();
    return new StatsReport(uptime, gets, writes, chainWrites, arcs, microjoules, estimated,
        bytesCopiedIn, compactions, bytesReclaimed);
  }
}

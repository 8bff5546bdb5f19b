package org.fawnpack.kv.backend;

import static org.fawnpack.kv.wire.MessageType.refused;
import static org.fawnpack.kv.wire.MessageType.reply;

import java.io.IOException;
import java.util.Map;
import java.util.function.Supplier;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.store.EngineKeys;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.FrameServer;
import org.fawnpack.kv.wire.GetRequest;
import org.fawnpack.kv.wire.MessageType;
import org.fawnpack.kv.wire.StatsReport;

/**
 * GET at the tail of a key's chain, which holds only writes the whole chain has. A fresh copy
 * answers only after its predecessor's CHAIN_SYNC (within {@link Backend#SYNC_WAIT_MS}).
 */
final class TailReads {
  private final String id;
  private final Map<Long, ArcStore> arcs;
  private final RequestCounts counts;
  private final MissingArcs missing;
  private final Supplier<Member> self;
  private final GatedArcs gated;

  private final TailLease lease;
  private final java.util.concurrent.ScheduledExecutorService timer;
  private final FrameServer.Handler dispatch;

  TailReads(String id, Map<Long, ArcStore> arcs, RequestCounts counts,
      MissingArcs missing, Supplier<Member> self, GatedArcs gated, TailLease lease,
      java.util.concurrent.ScheduledExecutorService timer, FrameServer.Handler dispatch) {
    this.lease = lease;
    this.timer = timer;
    this.dispatch = dispatch;
    this.gated = gated;
    this.id = id;
    this.arcs = arcs;
    this.counts = counts;
    this.missing = missing;
    this.self = self;
  }

  /**
   * DIRECT_GET (key), sent by a client by its own ring {@code current}: a GET while this
   * member's {@link TailLease} holds, REFUSED otherwise (the client asks a front-end).
   */
  void directGet(Ring current, Frame request, FrameServer.Replies replies) throws IOException {
    String refusal = lease.directGetRefusal(current.epoch());
    if (refusal != null) {
      replies.send(refused(request, refusal));
      return;
    }
    get(current, request, replies);
  }

  /** GET (key), routed by {@code current}. */
  void get(Ring current, Frame request, FrameServer.Replies replies) throws IOException {
    byte[] key = GetRequest.decodeValid(request).key();
    long position = current.hash().position(key); // one keyed hash for chain and record
    Chain chain = current.chainFor(position);
    if (!chain.tail().equals(self.get())) {
      replies.send(refused(request, "backend " + id + " is not the tail of " + chain.range()
          + " (" + chain.tail() + " is)"));
      return;
    }
    ArcStore arc = arcs.get(chain.range().endInclusive());
    if (arc == null) {
      replies.send(refused(request, missing.refusal(current, chain, "gets")));
      return;
    }
    String gate = gated.refusal(chain.range().endInclusive()); // a load becoming visible
    if (gate != null) {
      gated.holdUntilOpen(chain.range().endInclusive(), request, replies, gate);
      return;
    }
    long end = chain.range().endInclusive();
    if (lease.heldNanos(end) > 0) { // its tail just moved here: see TailLease
      lease.afterHold(end, () -> again(request, replies), timer);
      return;
    }
    counts.gets.increment();
    arc.readWhenSynced(EngineKeys.of(position, key), Backend.SYNC_WAIT_MS)
        .whenComplete((value, failure) -> {
          // Gated since the check above? Then the read may have seen a load before it is
          // visible on every arc. A gate is set before its load is applied and lifted only
          // once every arc applied it, so a read that finds no gate after it is safe.
          String gatedNow = failure == null ? gated.refusal(end) : null;
          if (failure == null && lease.heldNanos(end) > 0) { // held since: the ring moved
            lease.afterHold(end, () -> again(request, replies), timer);
          } else if (gatedNow != null) {
            gated.holdUntilOpen(end, request, replies, gatedNow);
          } else if (failure == null) {
            replies.send(GetRequest.answer(request, value));
          } else {
            replies.send(refused(request, "backend " + id + " cannot read " + chain.range()
                + ": " + (failure instanceof java.util.concurrent.TimeoutException
                    ? "a copy, still without its predecessor's CHAIN_SYNC after "
                        + Backend.SYNC_WAIT_MS + " ms" : failure.getMessage())));
          }
        });
  }

  /** Handles {@code request} again from the start: its ring may have moved meanwhile. */
  private void again(Frame request, FrameServer.Replies replies) {
    try {
      dispatch.handle(request, replies);
    } catch (IOException | RuntimeException e) {
      replies.send(MessageType.error(request, "backend " + id + ": " + e.getMessage()));
    }
  }
}

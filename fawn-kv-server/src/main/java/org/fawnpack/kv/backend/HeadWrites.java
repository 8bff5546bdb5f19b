package org.fawnpack.kv.backend;

import static org.fawnpack.kv.wire.MessageType.error;
import static org.fawnpack.kv.wire.MessageType.refused;
import static org.fawnpack.kv.wire.MessageType.reply;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.store.EngineKeys;
import org.fawnpack.kv.wire.AdmittedWrite;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.FrameServer;
import org.fawnpack.kv.wire.MessageType;
import org.fawnpack.kv.wire.StatsReport;
import org.fawnpack.kv.wire.WouldBlockException;
import org.fawnpack.kv.wire.WriteId;
import org.fawnpack.kv.wire.WriteRequest;

/**
 * PUT and DELETE at the head of a key's chain: the head numbers the write with its arc's own
 * sequence, applies it and forwards it down the chain; the answer comes once the tail has it.
 * A write whose {@link WriteId} the arc applied recently (a client's retry) is not applied
 * again: it is answered as the first try went once that try is committed, and ERROR (try
 * again) while it is still on its way down the chain. A retry it does not know, at a head
 * whose table may lack it (the file came by restart or split, or its copy's source could not
 * tell), is answered
 * UNKNOWN_OUTCOME and not applied. A write its front-end admitted under a slice epoch older
 * than this back-end's {@link SliceFence} is answered FENCED and not applied.
 */
final class HeadWrites {
  private final String id;
  private final Map<Long, ArcStore> arcs;
  private final ChainForwarder forwarder;
  private final RequestCounts counts;
  private final ChainMessages chainMessages;
  private final Supplier<Member> self;
  private final SliceFence fence;
  private final MissingArcs missing;
  private final GatedArcs gated;

  HeadWrites(String id, Map<Long, ArcStore> arcs, ChainForwarder forwarder,
      RequestCounts counts, ChainMessages chainMessages, Supplier<Member> self,
      SliceFence fence, MissingArcs missing, GatedArcs gated) {
    this.gated = gated;
    this.id = id;
    this.arcs = arcs;
    this.forwarder = forwarder;
    this.counts = counts;
    this.chainMessages = chainMessages;
    this.self = self;
    this.fence = fence;
    this.missing = missing;
  }

  /**
   * PUT (key, value, write id, earlier try may have applied, admitting slice epoch) or DELETE
   * (key, write id, the same two), routed by {@code current}.
   */
  void write(Ring current, Frame request, FrameServer.Replies replies) throws IOException {
    AdmittedWrite admitted = AdmittedWrite.decode(request);
    WriteRequest write = admitted.write();
    boolean put = write.isPut();
    byte[] key = write.key();
    byte[] value = write.value();
    WriteId writeId = write.id();
    boolean earlierTryMayHaveApplied = write.earlierTryMayHaveApplied();
    long admittedAt = admitted.sliceEpoch();
    long position = current.hash().position(key); // one keyed hash for chain and record
    Chain chain = current.chainFor(position);
    if (!chain.head().equals(self.get())) {
      replies.send(refused(request, "backend " + id + " is not the head of " + chain.range()
          + " (" + chain.head() + " is)"));
      return;
    }
    ArcStore arc = arcs.get(chain.range().endInclusive());
    if (arc == null) {
      replies.send(refused(request, missing.refusal(current, chain, "writes")));
      return;
    }
    byte[] engineKey = EngineKeys.of(position, key);
    CompletableFuture<Frame> downstream;
    long sequence;
    boolean present = true;
    boolean mayBlock = replies.mayBlock();
    if (!arc.holdForWrite(mayBlock)) {
      throw new WouldBlockException("the arc " + arc.chain().range() + " is busy");
    }
    try {
      if (!arc.chain().equals(chain)) {
        // A new epoch reached this arc after the request was routed: its chain may be short
        // now (a member copying), so nothing may be applied.
        replies.send(refused(request, "the chain of " + chain.range() + " changed while the"
            + " request was routed; try again"));
        return;
      }
      // A bulk load becoming visible: checked under the arc's lock, which its apply takes
      // after the gate is set, so no write checked before the gate lands after the load.
      String gate = gated.refusal(chain.range().endInclusive());
      if (gate != null) {
        gated.holdUntilOpen(chain.range().endInclusive(), request, replies, gate);
        return;
      }
      RecentWrites.Applied earlier = arc.recent().find(writeId);
      if (earlier != null) {
        answerRetry(arc, earlier, request, replies); // even on a short chain: it needs no write
        return;
      }
      String fenced = fence.refusal(admittedAt); // under the arc's lock: see SliceFence
      if (fenced != null) {
        replies.send(MessageType.fenced(request, fenced, fence.fence()));
        return;
      }
      if (earlierTryMayHaveApplied && !arc.recentCoversAll()) {
        // The first try may have been applied before this member held the arc as it does now
        // (a copy, a restart, a split: those writes came without their ids). Applying it
        // again could undo a later write; saying "not applied" could be a lie.
        replies.send(MessageType.unknownOutcome(request, "backend "
            + id + " cannot tell whether an earlier try of this write took effect on "
            + chain.range() + "; not applied now"));
        return;
      }
      if (!chain.takesWrites()) {
        replies.send(refused(request, chain.frozen() ? "the arc " + chain.range() + " is"
            + " frozen while a back-end joins or a removed one's arcs merge: writes refused" : "the chain of "
            + chain.range() + " has " + chain.members().size() + " of " + chain.replicas()
            + " members in ring epoch " + current.epoch() + ": writes refused"));
        return;
      }
      counts.writes.increment();
      if (!put) {
        // "Absent" is decided here, in the head's order, but answered only after the chain:
        // the head holds writes the tail has not committed (issue 15's checker found this).
        present = arc.store().contains(engineKey);
      }
      sequence = put ? arc.store().put(engineKey, value) : arc.store().tombstone(engineKey);
      arc.recent().record(writeId, sequence, present);
      downstream = forwarder.forward(arc, new SentList.SentWrite(
          put ? MessageType.CHAIN_PUT : MessageType.CHAIN_DELETE, key, value, sequence,
          writeId));
    } finally {
      arc.releaseWrite(mayBlock);
    }
    chainMessages.answerWhenDone(arc, sequence, downstream, request, replies,
        present ? MessageType.OK : MessageType.NOT_FOUND);
  }

  /**
   * A retry of a write this arc applied as {@code earlier}: committed means the tail has it
   * (the successor answered, so it left the sent list; or, with no successor, it is durable).
   */
  private void answerRetry(ArcStore arc, RecentWrites.Applied earlier, Frame request,
      FrameServer.Replies replies) {
    counts.retriesAnswered.increment();
    boolean committed = arc.chain().successorOf(self.get()) == null
        ? arc.store().durableSequence() >= earlier.sequence()
        : !arc.sent().holds(earlier.sequence());
    if (committed) {
      replies.send(reply(request, earlier.present() ? MessageType.OK : MessageType.NOT_FOUND,
          null));
    } else {
      replies.send(error(request, "backend " + id + ": this write (" + earlier.sequence()
          + " of " + arc.chain().range() + ") is still on its way down the chain; try again"));
    }
  }
}

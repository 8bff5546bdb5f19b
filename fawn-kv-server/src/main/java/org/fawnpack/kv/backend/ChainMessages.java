package org.fawnpack.kv.backend;

import static org.fawnpack.kv.wire.MessageType.error;
import static org.fawnpack.kv.wire.MessageType.refused;
import static org.fawnpack.kv.wire.MessageType.reply;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.store.EngineKeys;
import org.fawnpack.kv.wire.ChainSync;
import org.fawnpack.kv.wire.ChainWrite;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.FrameServer;
import org.fawnpack.kv.wire.MessageType;
import org.fawnpack.kv.wire.StatsReport;
import org.fawnpack.kv.wire.WouldBlockException;
import org.fawnpack.kv.wire.WriteId;

/**
 * A back-end's side of the messages between chain members: a write from the predecessor
 * (stored under the head's number, passed on), CHAIN_SYNC, and the answer to a write once the
 * rest of the chain has it (or, at the tail, once it is durable). Both are taken only from a
 * member on the same ring epoch as the arc's chain here.
 */
final class ChainMessages {
  private final String id;
  private final Map<Long, ArcStore> arcs;
  private final ChainForwarder forwarder;
  private final RequestCounts counts;
  private final Supplier<Member> self;
  /**
   * Every member, not only the tail, makes a write durable before it passes its answer up:
   * then a write is acknowledged only once each member has it on its device, and a cluster
   * that loses power keeps it even if the tail's disk is lost too.
   */
  private volatile boolean durableAtEveryMember;

  private final TailLease lease;
  private final java.util.concurrent.ScheduledExecutorService timer;

  ChainMessages(String id, Map<Long, ArcStore> arcs, ChainForwarder forwarder,
      RequestCounts counts, Supplier<Member> self,
      TailLease lease, java.util.concurrent.ScheduledExecutorService timer) {
    this.lease = lease;
    this.timer = timer;
    this.id = id;
    this.arcs = arcs;
    this.forwarder = forwarder;
    this.counts = counts;
    this.self = self;
  }

  /**
   * CHAIN_PUT or CHAIN_DELETE (arc end, key, value, sequence, write id) from the predecessor;
   * the write id is remembered with the write, so this member answers a retry of it when it
   * becomes head.
   */
  void write(Ring current, Frame request, FrameServer.Replies replies) throws IOException {
    ChainWrite write = ChainWrite.decode(request);
    boolean put = write.isPut();
    long arcEnd = write.arcEnd();
    byte[] key = write.key();
    byte[] value = write.value();
    long sequence = write.sequence();
    WriteId writeId = write.id();
    ArcStore arc = arcs.get(arcEnd);
    if (arc == null) {
      replies.send(notAReplica(request, arcEnd));
      return;
    }
    byte[] engineKey = EngineKeys.of(current.hash().position(key), key);
    CompletableFuture<Frame> downstream;
    boolean mayBlock = replies.mayBlock();
    if (!arc.holdForWrite(mayBlock)) {
      throw new WouldBlockException("the arc " + arc.chain().range() + " is busy");
    }
    try {
      Frame refusal = refusal(arc, request, arcEnd);
      if (refusal != null) {
        replies.send(refusal);
        return;
      }
      counts.chainWrites.increment();
      long expected = arc.store().lastSequence() + 1;
      if (sequence > expected) {
        // An earlier write was lost on the way; the predecessor resends it (its sent list)
        // before this one, so refusing keeps this file a prefix of the predecessor's.
        replies.send(MessageType.behind(request, "backend " + id + ": write " + sequence
            + " of the arc ending at " + Long.toHexString(arcEnd) + " came before " + expected,
            expected));
        return;
      }
      if (sequence == expected) { // a new write, not a resend this member already has
        arc.recent().record(writeId, sequence, put || arc.store().contains(engineKey));
        if (writeId.isNone()) {
          arc.recentIncomplete();
        }
      }
      if (put) {
        arc.store().putAt(engineKey, value, sequence);
      } else {
        arc.store().deleteAt(engineKey, sequence);
      }
      // A resend this member already has is forwarded too: its successor may lack it.
      downstream = forwarder.forward(arc,
          new SentList.SentWrite(request.type(), key, value, sequence, writeId));
    } finally {
      arc.releaseWrite(mayBlock);
    }
    answerWhenDone(arc, sequence, downstream, request, replies, MessageType.OK);
  }

  /**
   * CHAIN_SYNC (arc end, the predecessor's last sequence): this member holds everything its
   * predecessor had, so a copied arc may serve gets; passed on down the chain.
   */
  void sync(Frame request, FrameServer.Replies replies) throws IOException {
    ChainSync sync = ChainSync.decode(request);
    long arcEnd = sync.arcEnd();
    long sequence = sync.lastSequence();
    ArcStore arc = arcs.get(arcEnd);
    if (arc == null) {
      replies.send(notAReplica(request, arcEnd));
      return;
    }
    arc.lock();
    try {
      Frame refusal = refusal(arc, request, arcEnd);
      if (refusal != null) {
        replies.send(refusal);
        return;
      }
      long have = arc.store().lastSequence();
      if (have < sequence) {
        replies.send(MessageType.behind(request, "backend " + id + " holds writes up to "
            + have + " of " + arc.chain().range() + ", not yet " + sequence, have + 1));
        return;
      }
      arc.syncArrived();
      forwarder.passSyncOn(arc);
    } finally {
      arc.unlock();
    }
    replies.send(reply(request, MessageType.OK, null));
  }

  /**
   * Why this member takes no chain message for {@code arc} now — another epoch, or it is no
   * member after the head — or null; the caller holds the arc's lock.
   */
  private Frame refusal(ArcStore arc, Frame request, long arcEnd) {
    if (request.epoch() != arc.epoch()) {
      return staleRing(arc, request);
    }
    return arc.chain().members().indexOf(self.get()) <= 0 ? notAReplica(request, arcEnd) : null;
  }

  private Frame notAReplica(Frame request, long arcEnd) {
    return refused(request, "backend " + id + " is no replica of the arc ending at "
        + Long.toHexString(arcEnd));
  }

  /**
   * A chain message from a member on another ring epoch than this arc's chain: it sees another
   * chain (a member on a newer ring may have a successor where this one is the tail, and would
   * commit a write the new tail never got), so nothing is taken; the sender sends it again
   * once the two rings agree. The fault loop found a tail answering without acknowledged
   * writes when members acted on such messages by their own rings.
   */
  private static Frame staleRing(ArcStore arc, Frame request) {
    return new Frame(MessageType.STALE_RING, request.requestId(), arc.epoch(), null);
  }

  /** See {@link #durableAtEveryMember}: {@code fawn.kv.durability}. */
  void durableAtEveryMember(boolean everyMember) {
    this.durableAtEveryMember = everyMember;
  }

  /**
   * The tail answers once its write is durable; the others when their successor answered (and,
   * when every member makes writes durable, once it is durable here too). A success is
   * answered as {@code success} (the head's NOT_FOUND for a delete of an absent key). The wait
   * for this member's device starts now, beside the forward, so a chain's forces overlap
   * instead of following one another up the chain; no thread waits for either.
   */
  void answerWhenDone(ArcStore arc, long sequence, CompletableFuture<Frame> downstream,
      Frame request, FrameServer.Replies replies, byte success) {
    if (downstream == null) { // the tail: not while its arc is held (TailLease)
      long arcEnd = arc.chain().range().endInclusive();
      whenDurable(arc, sequence, request, replies,
          () -> lease.sendWhenNotHeld(arcEnd, replies, reply(request, success, null), timer));
      return;
    }
    CompletableFuture<Void> durableHere = durableAtEveryMember
        ? durable(arc, sequence) : CompletableFuture.completedFuture(null);
    downstream.whenComplete((answer, failure) -> {
      if (failure == null && answer.type() == MessageType.OK) {
        whenDurable(durableHere, sequence, request, replies,
            () -> replies.send(reply(request, success, null)));
      } else {
        // Applied here already, so never REFUSED upstream even when the successor refused
        // (no ring yet, a gap): the sent list will bring it down the chain later, and a
        // client told "refused" would take a write that may still appear for one that did not
        // happen. The issue 15 checker found this.
        replies.send(error(request, "backend " + id + ": the chain did not complete write "
            + sequence + ": " + (failure != null ? failure.getMessage()
                : MessageType.name(answer.type()) + " " + MessageType.messageOf(answer))));
      }
    });
  }

  /** The arc's store's promise that {@code sequence} is on the device (failed, not thrown). */
  private static CompletableFuture<Void> durable(ArcStore arc, long sequence) {
    try {
      return arc.store().whenDurable(sequence);
    } catch (RuntimeException e) { // the store closed under a split or a removal
      return CompletableFuture.failedFuture(e);
    }
  }

  private void whenDurable(ArcStore arc, long sequence, Frame request,
      FrameServer.Replies replies, Runnable answer) {
    whenDurable(durable(arc, sequence), sequence, request, replies, answer);
  }

  /** Runs {@code answer} once {@code durable} completes; answers ERROR if it failed. */
  private void whenDurable(CompletableFuture<Void> durable, long sequence, Frame request,
      FrameServer.Replies replies, Runnable answer) {
    durable.whenComplete((done, failure) -> {
      if (failure == null) {
        answer.run();
      } else {
        Throwable cause = failure instanceof java.util.concurrent.CompletionException
            && failure.getCause() != null ? failure.getCause() : failure;
        replies.send(error(request, "backend " + id + ": write " + sequence
            + " not durable: " + cause.getMessage()));
      }
    });
  }
}

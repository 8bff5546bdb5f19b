package org.fawnpack.kv.backend;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.fawnpack.kv.backend.SentList.SentWrite;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.wire.ChainAttach;
import org.fawnpack.kv.wire.ChainSync;
import org.fawnpack.kv.wire.ChainWrite;
import org.fawnpack.kv.wire.ConnectionPool;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.MessageType;
import org.fawnpack.kv.time.Backoff;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends a member's writes down each arc's chain to its successor, keeping every one in the
 * arc's {@link SentList} until the successor answers OK (which it does only once the tail
 * committed). Whatever may not have arrived — a send that failed, a successor that changed — is
 * sent again, oldest first, before anything newer, so the successor's file stays a prefix of
 * this member's; after a failure the resend is also retried on a timer, since no new write may
 * come to carry it. A tail whose arc is being copied keeps its writes in the sent list too, for
 * the member copying it. A new successor is sent CHAIN_SYNC after the resend. A successor that
 * answers BEHIND is caught up from this member's file (after a restart lost the sent list).
 * Every message carries the epoch of the arc's chain; a successor on another epoch answers
 * STALE_RING and takes nothing, and the message goes again shortly after.
 * Callers hold the arc's lock.
 */
final class ChainForwarder implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(ChainForwarder.class);
  /** A failed send's resend when no new write carries it: after 1, 2, ... failures in a row. */
  private final Backoff resendPauses;
  /** After STALE_RING, its first pause each time: the two rings agree within milliseconds. */
  private final Backoff staleRingPauses;

  private final String who;
  private final ConnectionPool successors;
  private final ScheduledExecutorService retries;
  private volatile Member self;

  ChainForwarder(String who, ConnectionPool successors, Backoff resendPauses,
      Backoff staleRingPauses) {
    this.who = who;
    this.resendPauses = resendPauses;
    this.staleRingPauses = staleRingPauses;
    this.successors = successors;
    this.retries = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "fawn-kv-resend-" + who);
      t.setDaemon(true);
      return t;
    });
  }

  /** The member this forwarder sends for (set with each ring: it may restart elsewhere). */
  void use(Member self) {
    this.self = self;
  }

  /**
   * Forwards {@code write} to this member's successor in the arc's chain, after any resend
   * due; the future is the successor's answer. Null when this member is the tail (which then
   * keeps the write for a member copying the arc, if any).
   */
  CompletableFuture<Frame> forward(ArcStore arc, SentWrite write) {
    Chain chain = arc.chain();
    Member next = chain.successorOf(self);
    if (next == null) {
      if (chain.nextPending() != null && chain.members().contains(self)) {
        arc.sent().add(write); // the copy may end before this write: it gets it on joining
      }
      return null;
    }
    resendIfNeeded(arc, next);
    arc.sent().add(write);
    return send(arc, next, write);
  }

  /**
   * The arc's chain changed to {@code next}, of ring {@code epoch}: a new successor is sent
   * the whole sent list, then CHAIN_SYNC; a member that became the tail drops the list (what it holds is committed once
   * durable here) unless a member is copying the arc.
   */
  void chainChanged(ArcStore arc, Chain before, Chain next, long epoch) {
    Member oldSuccessor = before.successorOf(self);
    Member newSuccessor = next.successorOf(self);
    arc.useChain(next, epoch);
    if (newSuccessor == null) {
      if (next.pending().isEmpty()) {
        arc.sent().clear();
      }
    } else if (!newSuccessor.equals(oldSuccessor)) {
      LOG.info("{}: arc {} now forwards to {}; resending {} unconfirmed writes", who,
          next.range(), newSuccessor, arc.sent().size());
      arc.sent().markResendNeeded();
      arc.owesSync(true);
      flush(arc, newSuccessor);
    } else if (!below(before).equals(below(next)) && arc.sent().size() > 0) {
      // The same successor, another chain below it (a member further down marked down): the
      // answers to what this member sent may have been waiting on the member that went, and
      // would never come. Sent again, each is answered by the chain as it is now.
      LOG.info("{}: arc {} now runs {} below {}; resending {} unconfirmed writes", who,
          next.range(), below(next), newSuccessor, arc.sent().size());
      arc.sent().markResendNeeded();
      resendIfNeeded(arc, newSuccessor);
    }
  }

  /** The members after this one in {@code chain} (empty when it is not a member). */
  private List<Member> below(Chain chain) {
    int at = chain.members().indexOf(self);
    return at < 0 ? List.of() : chain.members().subList(at + 1, chain.members().size());
  }

  /**
   * This member received CHAIN_SYNC and holds what its predecessor had: its successor is owed
   * one too, after anything it must resend.
   */
  void passSyncOn(ArcStore arc) {
    Member next = arc.chain().successorOf(self);
    if (next != null) {
      arc.owesSync(true);
      flush(arc, next);
    }
  }

  private void flush(ArcStore arc, Member next) {
    resendIfNeeded(arc, next);
    if (arc.owesSync()) {
      sendSync(arc, next);
    }
  }

  private void resendIfNeeded(ArcStore arc, Member next) {
    for (SentWrite write : arc.sent().takeResend()) {
      send(arc, next, write);
    }
  }

  /** A sent-list entry as its message: a bulk load's attach, or a put or delete. */
  private static byte[] encode(long arcEnd, SentWrite write) {
    if (write.type() == MessageType.CHAIN_ATTACH) {
      return new ChainAttach(arcEnd, new String(write.key(), StandardCharsets.US_ASCII),
          ByteBuffer.wrap(write.value()).getLong(), write.sequence(), write.id()).encode();
    }
    return new ChainWrite(arcEnd, write.key(), write.value(), write.sequence(), write.id())
        .encode();
  }

  private CompletableFuture<Frame> send(ArcStore arc, Member next, SentWrite write) {
    CompletableFuture<Frame> answer = sendFrame(arc, next, write.type(),
        encode(arc.chain().range().endInclusive(), write));
    return answer.whenComplete((reply, failure) -> {
      if (failure == null && reply.type() == MessageType.OK) {
        arc.sent().confirmed(write.sequence());
        arc.forwardConfirmed();
      } else if (failure == null && reply.type() == MessageType.BEHIND) {
        catchUpSoon(arc, reply);
      } else if (failure == null && reply.type() == MessageType.STALE_RING) {
        // The successor is on another epoch: it took nothing. Again once the rings agree.
        arc.sent().markResendNeeded();
        retrySoon(arc, true);
      } else {
        // Refused (a gap, not a replica yet) or broken: it goes again before the next write,
        // or on the timer.
        arc.sent().markResendNeeded();
        retrySoon(arc, false);
      }
    });
  }

  private void sendSync(ArcStore arc, Member next) {
    byte[] payload = new ChainSync(arc.chain().range().endInclusive(),
        arc.store().lastSequence()).encode();
    sendFrame(arc, next, MessageType.CHAIN_SYNC, payload).whenComplete((reply, failure) -> {
      boolean ok = failure == null && reply.type() == MessageType.OK;
      if (ok) {
        // Not on this reply thread: the arc's lock may be held by a writer waiting on it.
        execute(() -> {
          arc.lock();
          try {
            if (next.equals(arc.chain().successorOf(self))) {
              arc.owesSync(false);
            }
          } finally {
            arc.unlock();
          }
        });
      } else if (failure == null && reply.type() == MessageType.BEHIND) {
        catchUpSoon(arc, reply);
      } else {
        LOG.debug("{}: CHAIN_SYNC of arc {} to {} failed: {}", who, arc.chain().range(), next,
            failure != null ? failure.getMessage() : MessageType.name(reply.type()) + " "
                + MessageType.messageOf(reply));
        retrySoon(arc, failure == null && reply.type() == MessageType.STALE_RING);
      }
    });
  }

  /** Sends a chain message stamped with the epoch of the arc's chain (see ArcStore#epoch). */
  private CompletableFuture<Frame> sendFrame(ArcStore arc, Member next, byte type,
      byte[] payload) {
    return successors.to(next).send(type, arc.epoch(), payload);
  }

  /**
   * This member opened the arc's file after a restart: its sent list is gone, so its successor
   * is sent CHAIN_SYNC, which it answers BEHIND if it lacks writes this file has.
   */
  void opened(ArcStore arc) {
    Member next = arc.chain().successorOf(self);
    if (next != null) {
      arc.owesSync(true);
      flush(arc, next);
    }
  }

  /**
   * The successor answered BEHIND: it expects an earlier write than the sent list holds (this
   * member restarted and lost the list, or the successor lost its last writes). Off the reply
   * thread, the writes from there on are read back from this member's file into the sent list
   * and everything is resent in order.
   */
  private void catchUpSoon(ArcStore arc, Frame behind) {
    long from;
    try {
      from = MessageType.nextExpectedOf(behind);
    } catch (IOException e) {
      LOG.error("{}: a malformed BEHIND for arc {}: {}", who, arc.chain().range(),
          e.getMessage());
      return;
    }
    arc.sent().markResendNeeded();
    execute(() -> {
      arc.lock();
      try {
        try {
          long missing = SentListRefill.fromFile(arc, from);
          if (missing > 0 && arc.reportGapOnce(missing)) {
            LOG.error("{}: arc {}: the successor lacks write {}, which neither the sent list"
                + " nor this member's file holds (compacted away); the arc takes no writes"
                + " until a member is replaced", who, arc.chain().range(), missing);
          }
        } catch (IOException | RuntimeException e) {
          LOG.warn("{}: arc {}: cannot read writes from {} back from the file: {}", who,
              arc.chain().range(), from, e.toString());
        }
      } finally {
        arc.unlock();
      }
      retrySoon(arc, false);
    });
  }

  /** Resends (and syncs) on the timer, in case no new write comes to carry it. */
  private void retrySoon(ArcStore arc, boolean staleRing) {
    int inARow = retries.isShutdown() ? 0 : arc.claimRetry();
    if (inARow == 0) {
      return;
    }
    long delayMs = staleRing ? staleRingPauses.firstPauseMs() : resendPauses.pauseAfter(inARow);
    schedule(() -> {
      arc.lock();
      try {
        arc.retryStarted();
        Member next = arc.chain().successorOf(self);
        if (next != null) {
          flush(arc, next);
        }
      } finally {
        arc.unlock();
      }
    }, delayMs);
  }

  private void execute(Runnable task) {
    schedule(task, 0);
  }

  private void schedule(Runnable task, long delayMs) {
    try {
      retries.schedule(task, delayMs, TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      LOG.debug("{}: closed; no retry", who);
    }
  }

  @Override
  public void close() {
    retries.shutdownNow();
    successors.close();
  }
}

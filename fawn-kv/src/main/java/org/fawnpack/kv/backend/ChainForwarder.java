package org.fawnpack.kv.backend;

import java.io.Closeable;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import org.fawnpack.kv.backend.SentList.SentWrite;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.wire.ConnectionPool;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.MessageType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends a member's writes down each arc's chain to its successor, keeping every one in the
 * arc's {@link SentList} until the successor answers OK (which it does only once the tail
 * committed). Whatever may not have arrived — a send that failed, a successor that changed — is
 * sent again, oldest first, before anything newer, so the successor's file stays a prefix of
 * this member's. Callers hold the arc's lock.
 */
final class ChainForwarder implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(ChainForwarder.class);

  private final String who;
  private final ConnectionPool successors;

  ChainForwarder(String who, ConnectionPool successors) {
    this.who = who;
    this.successors = successors;
  }

  /**
   * Forwards {@code write} to {@code self}'s successor in the arc's chain, after any resend
   * due; the future is the successor's answer. Null when {@code self} is the tail.
   */
  CompletableFuture<Frame> forward(ArcStore arc, Member self, long epoch, SentWrite write) {
    Member next = arc.chain().successorOf(self);
    if (next == null) {
      return null;
    }
    resendIfNeeded(arc, next, epoch);
    arc.sent().add(write);
    return send(arc, next, epoch, write);
  }

  /**
   * The arc's chain changed to {@code next} (a member went down): a new successor is sent the
   * whole sent list; a member that became the tail drops it, since what it holds is committed
   * once durable here.
   */
  void chainChanged(ArcStore arc, Member self, Chain before, Chain next, long epoch) {
    Member oldSuccessor = before.successorOf(self);
    Member newSuccessor = next.successorOf(self);
    arc.useChain(next);
    if (newSuccessor == null) {
      arc.sent().clear();
    } else if (!newSuccessor.equals(oldSuccessor)) {
      LOG.info("{}: arc {} now forwards to {}; resending {} unconfirmed writes", who,
          next.range(), newSuccessor, arc.sent().size());
      arc.sent().markResendNeeded();
      resendIfNeeded(arc, newSuccessor, epoch);
    }
  }

  private void resendIfNeeded(ArcStore arc, Member next, long epoch) {
    for (SentWrite write : arc.sent().takeResend()) {
      send(arc, next, epoch, write);
    }
  }

  private CompletableFuture<Frame> send(ArcStore arc, Member next, long epoch, SentWrite write) {
    Frame.Payload payload = new Frame.Payload().addLong(arc.chain().range().endInclusive())
        .addBytes(write.key());
    if (write.value() != null) {
      payload.addBytes(write.value());
    }
    CompletableFuture<Frame> answer;
    try {
      answer = successors.to(next).send(write.type(), epoch,
          payload.addLong(write.sequence()).toBytes());
    } catch (IOException e) {
      answer = CompletableFuture.failedFuture(e);
    }
    return answer.whenComplete((reply, failure) -> {
      if (failure == null && reply.type() == MessageType.OK) {
        arc.sent().confirmed(write.sequence());
      } else {
        // Refused (a gap, not a replica yet) or broken: it goes again before the next write.
        arc.sent().markResendNeeded();
      }
    });
  }

  @Override
  public void close() {
    successors.close();
  }
}

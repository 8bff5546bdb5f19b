package org.fawnpack.kv.backend;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.fawnpack.kv.wire.WriteId;

/**
 * The writes a chain member forwarded to its successor that the tail has not yet confirmed, in
 * sequence order: chain replication's sent list. A write leaves it when the successor's answer
 * (which comes back only after the tail committed) arrives; until then it is resent whenever the
 * successor may have missed it — a new successor after a failure, or a broken connection — so
 * the next member's file stays a prefix of this one's.
 */
final class SentList {

  /**
   * One forwarded write: its chain message type, key, value (null for a delete), number and
   * the client's id for it ({@link WriteId#NONE} when read back from a file).
   */
  record SentWrite(byte type, byte[] key, byte[] value, long sequence, WriteId id) {}

  /** Someone waiting for every write up to {@code sequence} to be committed. */
  private record Waiter(long sequence, CompletableFuture<Void> committed) {}

  private final TreeMap<Long, SentWrite> unconfirmed = new TreeMap<>();
  private final List<Waiter> waiters = new ArrayList<>();
  private boolean resendNeeded;
  /** The highest write the tail confirmed through this list (0: none since this run began). */
  private long maxConfirmed;

  synchronized void add(SentWrite write) {
    unconfirmed.put(write.sequence(), write);
  }

  /** The tail committed {@code sequence}: it is on every member after this one. */
  void confirmed(long sequence) {
    List<Waiter> ready;
    synchronized (this) {
      unconfirmed.remove(sequence);
      maxConfirmed = Math.max(maxConfirmed, sequence);
      ready = takeReadyWaiters();
    }
    complete(ready);
  }

  /**
   * Completes once no write numbered {@code sequence} or lower is unconfirmed (at once when
   * none is now): what a FENCE waits for instead of looking again and again. It never fails;
   * a caller that cannot wait for ever bounds the wait itself.
   */
  CompletableFuture<Void> committedThrough(long sequence) {
    synchronized (this) {
      if (holdsAnyUpTo(sequence)) {
        CompletableFuture<Void> committed = new CompletableFuture<>();
        waiters.add(new Waiter(sequence, committed));
        return committed;
      }
    }
    return CompletableFuture.completedFuture(null);
  }

  /** The waiters whose writes all left the list; the caller completes them unlocked. */
  private List<Waiter> takeReadyWaiters() {
    if (waiters.isEmpty()) {
      return List.of();
    }
    List<Waiter> ready = new ArrayList<>();
    for (Iterator<Waiter> i = waiters.iterator(); i.hasNext(); ) {
      Waiter w = i.next();
      if (!holdsAnyUpTo(w.sequence())) {
        ready.add(w);
        i.remove();
      }
    }
    return ready;
  }

  /** Outside the lock: a waiter's continuation may send a reply or take other locks. */
  private static void complete(List<Waiter> ready) {
    for (Waiter w : ready) {
      w.committed().complete(null);
    }
  }

  /**
   * The highest sequence number such that every write up to it is on every member after this
   * one: writes enter the list in sequence order and leave it only when the tail committed
   * them, so all below the oldest one still listed and up to the highest confirmed are there.
   * 0 until a confirmation arrives in this run (a restarted member knows nothing of its
   * successors' files until then). What a member may compact below ({@link ArcCompactions}).
   */
  synchronized long confirmedThrough() {
    return unconfirmed.isEmpty() ? maxConfirmed
        : Math.min(maxConfirmed, unconfirmed.firstKey() - 1);
  }

  /** A send failed: the successor may lack it, so everything goes again before what follows. */
  synchronized void markResendNeeded() {
    resendNeeded = true;
  }

  /**
   * The writes to send again, oldest first, when a resend is needed (clearing the need), or an
   * empty list. The caller holds the arc's lock, so nothing new is forwarded in between.
   */
  synchronized List<SentWrite> takeResend() {
    if (!resendNeeded) {
      return List.of();
    }
    resendNeeded = false;
    return new ArrayList<>(unconfirmed.values());
  }

  /** This member became the tail: what it holds is committed once durable here. */
  void clear() {
    List<Waiter> ready;
    synchronized (this) {
      unconfirmed.clear();
      resendNeeded = false;
      ready = takeReadyWaiters();
    }
    complete(ready);
  }

  /** The first of {@code from..to} the list does not hold, or 0 when it holds them all. */
  synchronized long firstMissing(long from, long to) {
    for (long s = from; s <= to; s++) {
      if (!unconfirmed.containsKey(s)) {
        return s;
      }
    }
    return 0;
  }

  /** Whether any write numbered {@code sequence} or lower is still unconfirmed. */
  synchronized boolean holdsAnyUpTo(long sequence) {
    return !unconfirmed.isEmpty() && unconfirmed.firstKey() <= sequence;
  }

  /** Whether write {@code sequence} is still unconfirmed (the tail has not committed it). */
  synchronized boolean holds(long sequence) {
    return unconfirmed.containsKey(sequence);
  }

  synchronized int size() {
    return unconfirmed.size();
  }
}

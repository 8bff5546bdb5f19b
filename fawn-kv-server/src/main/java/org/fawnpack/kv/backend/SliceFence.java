package org.fawnpack.kv.backend;

import static org.fawnpack.kv.wire.MessageType.refused;
import static org.fawnpack.kv.wire.MessageType.reply;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.wire.Fence;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.FrameServer;
import org.fawnpack.kv.wire.MalformedFrameException;
import org.fawnpack.kv.wire.MessageType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A back-end's fence against writes from front-ends that no longer serve their keys. Every
 * write reaches the head with the slice epoch under which its front-end admitted it; the head
 * refuses (FENCED) one admitted under an epoch older than the fence. A front-end that starts
 * serving keys another may have served raises the fence of every back-end to the slice epoch
 * it serves by (FENCE), and serves them only once each answered that every write it took
 * before is committed at the tail: a former owner frozen mid-request (a long pause, a stalled
 * VM) cannot then land a write behind the new owner's cache, however late it wakes.
 *
 * <p>The fence lives in memory: a back-end wired to ZooKeeper starts {@linkplain
 * #unknown() unknown} (refusing every write) and learns it from the slice map's epoch once its
 * registration exists ({@link #learned}), and again after each new ZooKeeper session, since
 * fences raised while it had none were not sent to it.
 */
final class SliceFence {
  private static final Logger LOG = LoggerFactory.getLogger(SliceFence.class);
  /** How often a FENCE looks whether the writes taken before it are committed. */
  private static final long DRAIN_POLL_MS = 5;
  /** A FENCE still draining after this is answered REFUSED (the front-end asks again). */
  static final long DRAIN_LIMIT_MS = 5_000;

  private final String id;
  private final Map<Long, ArcStore> arcs;
  private final Supplier<Member> self;
  private final ScheduledExecutorService timer;
  private long fence; // guarded by this
  private boolean known = true; // guarded by this

  SliceFence(String id, Map<Long, ArcStore> arcs, Supplier<Member> self,
      ScheduledExecutorService timer) {
    this.id = id;
    this.arcs = arcs;
    this.self = self;
    this.timer = timer;
  }

  /**
   * Null when a write admitted under slice epoch {@code admittedAt} may be applied, else why
   * not. Callers hold the arc's lock, so a FENCE's drain sees every write taken before it.
   */
  synchronized String refusal(long admittedAt) {
    if (!known) {
      return "backend " + id + " does not know its fence yet (it has no ZooKeeper session, or"
          + " has not read the slice map since its last one): no write is taken";
    }
    if (admittedAt < fence) {
      return "backend " + id + " is fenced at slice epoch " + fence + ": this write was"
          + " admitted under slice epoch " + admittedAt + ", and its key may be served by"
          + " another front-end now; not applied";
    }
    return null;
  }

  synchronized long fence() {
    return fence;
  }

  /** Refuses every write until {@link #learned}: a new ZooKeeper session missed fences. */
  synchronized void unknown() {
    if (known) {
      LOG.info("backend {}: its ZooKeeper session ended; takes no write until it has read the"
          + " slice map again", id);
    }
    known = false;
  }

  /** The slice map's epoch, read after this back-end's registration exists: the fence is at least that. */
  synchronized void learned(long sliceEpoch) {
    fence = Math.max(fence, sliceEpoch);
    if (!known) {
      LOG.info("backend {}: fenced at slice epoch {}; takes writes again", id, fence);
    }
    known = true;
  }

  /**
   * FENCE (slice epoch), routed by this back-end's ring epoch: raises the fence, then answers
   * OK once every write this member took before, as head or middle, is committed at its tail.
   */
  void fence(Frame request, FrameServer.Replies replies) throws MalformedFrameException {
    long epoch = Fence.decode(request).sliceEpoch();
    synchronized (this) {
      fence = Math.max(fence, epoch);
    }
    Map<ArcStore, Long> taken = new HashMap<>();
    Member me = self.get();
    for (ArcStore arc : arcs.values()) {
      arc.lock();
      try { // no write is between being applied and being in the sent list
        if (arc.chain().successorOf(me) != null) {
          taken.put(arc, arc.store().lastSequence());
        }
      } finally {
        arc.unlock();
      }
    }
    drain(request, replies, taken, System.nanoTime()
        + TimeUnit.MILLISECONDS.toNanos(DRAIN_LIMIT_MS));
  }

  private void drain(Frame request, FrameServer.Replies replies, Map<ArcStore, Long> taken,
      long deadlineNanos) {
    taken.entrySet().removeIf(e -> !e.getKey().sent().holdsAnyUpTo(e.getValue()));
    if (taken.isEmpty()) {
      replies.send(reply(request, MessageType.OK, null));
      return;
    }
    if (System.nanoTime() - deadlineNanos > 0 || timer.isShutdown()) {
      ArcStore stuck = taken.keySet().iterator().next();
      replies.send(refused(request, "backend " + id + ": writes taken before the fence are"
          + " still on their way down " + taken.size() + " chains (" + stuck.chain().range()
          + " among them) after " + DRAIN_LIMIT_MS + " ms; ask again"));
      return;
    }
    try {
      timer.schedule(() -> drain(request, replies, taken, deadlineNanos), DRAIN_POLL_MS,
          TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      replies.send(refused(request, "backend " + id + " is closing"));
    }
  }
}

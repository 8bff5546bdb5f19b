package org.fawnpack.kv.backend;

import static org.fawnpack.kv.wire.MessageType.refused;
import static org.fawnpack.kv.wire.MessageType.reply;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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
  /** A FENCE still draining after this is answered REFUSED (the front-end asks again). */
  static final long DRAIN_LIMIT_MS = org.fawnpack.kv.wire.Fence.DRAIN_LIMIT_MS;

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
   * OK once every write this member took before, as head or middle, is committed at its tail
   * (each arc's sent list says when: {@link SentList#committedThrough}), or REFUSED after
   * {@link #DRAIN_LIMIT_MS} (the front-end asks again).
   */
  void fence(Frame request, FrameServer.Replies replies) throws MalformedFrameException {
    long epoch = Fence.decode(request).sliceEpoch();
    synchronized (this) {
      fence = Math.max(fence, epoch);
    }
    Map<ArcStore, CompletableFuture<Void>> taken = new HashMap<>();
    Member me = self.get();
    for (ArcStore arc : arcs.values()) {
      arc.lock();
      try { // no write is between being applied and being in the sent list
        if (arc.chain().successorOf(me) != null) {
          taken.put(arc, arc.sent().committedThrough(arc.store().lastSequence()));
        }
      } finally {
        arc.unlock();
      }
    }
    CompletableFuture<Void> all =
        CompletableFuture.allOf(taken.values().toArray(CompletableFuture[]::new));
    if (!all.isDone()) {
      ScheduledFuture<?> limit;
      try {
        limit = timer.schedule(() -> all.completeExceptionally(new TimeoutException()),
            DRAIN_LIMIT_MS, TimeUnit.MILLISECONDS);
      } catch (RejectedExecutionException e) {
        replies.send(refused(request, "backend " + id + " is closing"));
        return;
      }
      all.whenComplete((done, late) -> limit.cancel(false));
    }
    all.whenComplete((done, late) -> replies.send(late == null
        ? reply(request, MessageType.OK, null) : stillOnTheirWay(request, taken)));
  }

  private Frame stillOnTheirWay(Frame request, Map<ArcStore, CompletableFuture<Void>> taken) {
    List<ArcStore> stuck = taken.entrySet().stream().filter(e -> !e.getValue().isDone())
        .map(Map.Entry::getKey).toList();
    return refused(request, "backend " + id + ": writes taken before the fence are still on"
        + " their way down " + stuck.size() + " chains ("
        + (stuck.isEmpty() ? "none now" : stuck.get(0).chain().range() + " among them")
        + ") after " + DRAIN_LIMIT_MS + " ms; ask again");
  }
}

package org.fawnpack.kv.backend;

import static org.fawnpack.kv.wire.MessageType.error;
import static org.fawnpack.kv.wire.MessageType.refused;
import static org.fawnpack.kv.wire.MessageType.reply;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.store.Datastore;
import org.fawnpack.kv.store.DatastoreConfig;
import org.fawnpack.kv.store.RangeMoves;
import org.fawnpack.kv.wire.ChainAttach;
import org.fawnpack.kv.wire.BulkMessages;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.FrameServer;
import org.fawnpack.kv.wire.MessageType;
import org.fawnpack.kv.wire.WriteId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A back-end's side of a bulk load by attached files (see {@code BulkAttach}, the driver):
 * BULK_STAGE pieces become a staged file per arc ({@link BulkStaging}); BULK_GATE, sent once
 * the load committed, gates its arcs here; BULK_APPLY at an arc's head absorbs the staged file
 * after the head's last write (records base+1..base+n, numbered as in the file after base) and
 * sends CHAIN_ATTACH down the chain in sequence order with the other writes, so every member
 * absorbs its own copy at the same base and the files stay prefixes of one another; a member
 * without its copy answers BEHIND and gets the records as ordinary writes from its
 * predecessor's log. BULK_RELEASE opens the gates and drops the files.
 */
final class BulkLoads implements AutoCloseable, GatedArcs {
  private static final Logger LOG = LoggerFactory.getLogger(BulkLoads.class);
  /** How often a back-end compares its bulk loads with the cluster's. */
  static final long CHECK_MS = 1_000;

  private final String id;
  private final Map<Long, ArcStore> arcs;
  private final ChainForwarder forwarder;
  private final ChainMessages chainMessages;
  private final Supplier<Member> self;
  private final DatastoreConfig config;
  final BulkStaging staging;
  private final GateWaits waits;
  /** Its own thread: a ZooKeeper read that waits out a lost connection delays nothing else. */
  private final java.util.concurrent.ScheduledExecutorService checks =
      java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "fawn-kv-bulk-check");
        t.setDaemon(true);
        return t;
      });

  BulkLoads(String id, Path dir, Map<Long, ArcStore> arcs, ChainForwarder forwarder,
      ChainMessages chainMessages, Supplier<Member> self, DatastoreConfig config)
      throws IOException {
    this.id = id;
    this.arcs = arcs;
    this.forwarder = forwarder;
    this.chainMessages = chainMessages;
    this.self = self;
    this.config = config;
    this.staging = new BulkStaging(id, dir);
    this.waits = new GateWaits(arcEnd -> staging.gate(arcEnd) == null, checks);
  }

  /** Opens the job's gates here, drops its files, and lets the requests waiting go on. */
  private void releaseHere(String job) throws IOException {
    waits.opened(staging.release(job));
  }

  /** Where a held request is handled again (the back-end's dispatch). */
  interface Dispatch {
    void handle(Frame request, FrameServer.Replies replies) throws IOException;
  }

  private volatile Dispatch dispatch;

  void dispatchTo(Dispatch again) {
    this.dispatch = again;
  }

  @Override
  public void holdUntilOpen(long arcEnd, Frame request, FrameServer.Replies replies,
      String refusal) {
    waits.add(arcEnd, () -> {
      try {
        dispatch.handle(request, replies);
      } catch (IOException | RuntimeException e) {
        replies.send(error(request, "backend " + id + ": " + e.getMessage()));
      }
    }, () -> replies.send(refused(request, refusal)));
  }

  /** Why a read or write of the arc is refused now (a load is being applied), or null. */
  @Override
  public String refusal(long arcEnd) {
    String job = staging.gate(arcEnd);
    return job == null ? null : "backend " + id + ": the arc ending at "
        + Long.toHexString(arcEnd) + " is gated while bulk load " + job + " becomes visible"
        + " on every arc it loads; try again";
  }

  /**
   * Brings this member's loads in line with {@code directory}: committed loads it was not
   * told of (it was down, or started since) gate their arcs, and the files of loads that are
   * gone (done, or abandoned with their driver) are dropped.
   */
  void reconcile(BulkLoadDirectory directory) throws IOException {
    Map<String, Set<Long>> committed = directory.committed();
    for (Map.Entry<String, Set<Long>> load : committed.entrySet()) {
      if (!staging.gated(load.getKey())) {
        LOG.info("backend {}: bulk load {} is committed: its {} arcs are gated here until it"
            + " is released", id, load.getKey(), load.getValue().size());
        staging.gate(load.getKey(), load.getValue());
      }
    }
    for (String job : staging.jobs()) {
      if (!committed.containsKey(job) && !directory.known(job)) {
        releaseHere(job);
      }
    }
  }

  /**
   * Follows {@code directory}: once now (a committed load gates its arcs before this back-end
   * serves anything) and every {@link #CHECK_MS} after, which also releases loads whose
   * driver's release did not reach it.
   */
  void follow(BulkLoadDirectory directory) throws IOException {
    reconcile(directory);
    checks.scheduleWithFixedDelay(() -> {
      try {
        reconcile(directory);
      } catch (IOException | RuntimeException e) {
        LOG.warn("backend {}: cannot check the cluster's bulk loads: {}", id, e.toString());
      }
    }, CHECK_MS, CHECK_MS, java.util.concurrent.TimeUnit.MILLISECONDS);
  }

  @Override
  public void close() {
    checks.shutdownNow();
  }

  /** BULK_STAGE (job, arc end, offset, bytes, total or -1, CRC32C). */
  void stage(Frame request, FrameServer.Replies replies) throws IOException {
    BulkMessages.Stage stage = BulkMessages.Stage.decode(request);
    String job = checkedJob(stage.job());
    try {
      staging.piece(job, stage.arcEnd(), stage.offset(), stage.piece(), stage.total(),
          stage.crc32c());
      replies.send(reply(request, MessageType.OK, null));
    } catch (IOException | IllegalArgumentException e) {
      replies.send(refused(request, e.getMessage()));
    }
  }

  /** BULK_GATE (job, count, arc ends): the load committed; its arcs pause here. */
  void gate(Frame request, FrameServer.Replies replies) throws IOException {
    BulkMessages.Gate gate = BulkMessages.Gate.decode(request);
    staging.gate(checkedJob(gate.job()), gate.arcEnds());
    replies.send(reply(request, MessageType.OK, null));
  }

  /** BULK_RELEASE (job): every arc applied it, or it never committed. */
  void release(Frame request, FrameServer.Replies replies) throws IOException {
    releaseHere(checkedJob(BulkMessages.Release.decode(request).job()));
    replies.send(reply(request, MessageType.OK, null));
  }

  /**
   * BULK_APPLY (job, arc end) at the arc's head: absorbs the staged file after the last write
   * and forwards CHAIN_ATTACH; OK once the tail has it. Asked again after it applied here,
   * OK once the tail has it, ERROR (try again) while it is on its way.
   */
  void apply(Frame request, FrameServer.Replies replies) throws IOException {
    BulkMessages.Apply asked = BulkMessages.Apply.decode(request);
    String job = checkedJob(asked.job());
    long arcEnd = asked.arcEnd();
    ArcStore arc = arcs.get(arcEnd);
    if (arc == null) {
      replies.send(error(request, "backend " + id + " holds no arc ending at "
          + Long.toHexString(arcEnd) + " (the ring moved?); try its head again"));
      return;
    }
    CompletableFuture<Frame> downstream;
    long last;
    arc.lock();
    try {
      Chain chain = arc.chain();
      if (!chain.head().equals(self.get()) || !chain.takesWrites()) {
        replies.send(error(request, "backend " + id + " cannot apply bulk load " + job
            + " to " + chain.range() + " now: " + (chain.head().equals(self.get())
                ? "its chain takes no writes (short or frozen)" : chain.head() + " is its head")
            + "; try again"));
        return;
      }
      BulkStaging.Applying done = staging.applying(job, arcEnd);
      if (done != null) {
        // The tail has it once the chain confirmed it in this run: after a restart the sent
        // list is empty, and "nothing unconfirmed" would say yes before the successors have it.
        boolean committed = chain.successorOf(self.get()) == null
            ? arc.store().durableSequence() >= done.last()
            : arc.sent().confirmedThrough() >= done.last();
        replies.send(committed ? reply(request, MessageType.OK, null) : error(request,
            "backend " + id + ": bulk load " + job + " on " + chain.range() + " is on its way"
                + " down the chain; try again"));
        return;
      }
      Path staged = staging.staged(job, arcEnd);
      if (staged == null) {
        replies.send(refused(request, "backend " + id + " has no staged file of bulk load "
            + job + " for " + chain.range() + " (never staged here, or released)"));
        return;
      }
      long base = arc.store().lastSequence();
      last = absorb(job, arc, staged, base);
      downstream = forwarder.forward(arc, attachMessage(job, base, last));
    } finally {
      arc.unlock();
    }
    chainMessages.answerWhenDone(arc, last, downstream, request, replies, MessageType.OK);
  }

  /**
   * CHAIN_ATTACH (arc end, job, base, last, write id) from the predecessor: absorbs this
   * member's staged copy when its last write is the base, passes it on, and answers once the
   * rest of the chain has it; BEHIND with its next number when it lacks writes before, or
   * lacks the staged copy (its predecessor then sends the records from its log).
   */
  void attach(Frame request, FrameServer.Replies replies) throws IOException {
    ChainAttach attach = ChainAttach.decode(request);
    long arcEnd = attach.arcEnd();
    String job = checkedJob(attach.job());
    long base = attach.base();
    long last = attach.last();
    ArcStore arc = arcs.get(arcEnd);
    if (arc == null) {
      replies.send(refused(request, "backend " + id + " is no replica of the arc ending at "
          + Long.toHexString(arcEnd)));
      return;
    }
    CompletableFuture<Frame> downstream;
    arc.lock();
    try {
      if (request.epoch() != arc.epoch()) {
        replies.send(new Frame(MessageType.STALE_RING, request.requestId(), arc.epoch(), null));
        return;
      }
      if (arc.chain().members().indexOf(self.get()) <= 0) {
        replies.send(refused(request, "backend " + id + " is no replica after the head of "
            + arc.chain().range()));
        return;
      }
      long have = arc.store().lastSequence();
      Path staged = have == base ? staging.staged(job, arcEnd) : null;
      if (have < last && staged == null) {
        replies.send(MessageType.behind(request, "backend " + id + " holds writes up to "
            + have + " of " + arc.chain().range() + (have == base ? " but no staged file of"
                + " bulk load " + job : "; bulk load " + job + " goes after " + base),
            have + 1));
        return;
      }
      if (have < last) {
        long absorbedTo = absorb(job, arc, staged, base);
        if (absorbedTo != last) {
          LOG.error("backend {}: bulk load {} on {} ends at {} here but at {} at the head",
              id, job, arc.chain().range(), absorbedTo, last);
        }
      }
      // Forwarded even when this member had it: its successor may lack it (a resend).
      downstream = forwarder.forward(arc, attachMessage(job, base, last));
    } finally {
      arc.unlock();
    }
    chainMessages.answerWhenDone(arc, last, downstream, request, replies, MessageType.OK);
  }

  /** Absorbs the staged file after {@code base}; returns the last number it took. */
  private long absorb(String job, ArcStore arc, Path staged, long base) throws IOException {
    long arcEnd = arc.chain().range().endInclusive();
    try (Datastore file = Datastore.open(staged, config)) {
      long last = base + file.lastSequence();
      staging.markApplying(job, arcEnd, base, last);
      RangeMoves.absorb(arc.store(), file);
      LOG.info("backend {}: bulk load {} absorbed into {} as writes {}..{}", id, job,
          arc.chain().range(), base + 1, last);
      staging.absorbed(job, arcEnd);
      return last;
    }
  }

  /** Kept in the sent list as a write is: {@link ChainForwarder} sends it as a ChainAttach. */
  private static SentList.SentWrite attachMessage(String job, long base, long last) {
    return new SentList.SentWrite(MessageType.CHAIN_ATTACH, ChainAttach.jobBytes(job),
        ChainAttach.baseBytes(base), last, WriteId.NONE);
  }

  private static String checkedJob(String job) throws IOException {
    try {
      return BulkStaging.checkedJob(job);
    } catch (IllegalArgumentException e) {
      throw new org.fawnpack.kv.wire.MalformedFrameException(e.getMessage());
    }
  }
}

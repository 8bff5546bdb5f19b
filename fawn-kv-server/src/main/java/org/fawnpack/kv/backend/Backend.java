package org.fawnpack.kv.backend;

import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.fawnpack.kv.auth.ClusterSecret;
import org.fawnpack.kv.coord.RingFollower;
import org.fawnpack.kv.energy.NodeEnergy;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.store.DatastoreConfig;
import org.fawnpack.kv.store.Journal;
import org.fawnpack.kv.time.Backoffs;
import org.fawnpack.kv.wire.Connection;
import org.fawnpack.kv.wire.ConnectionPool;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.FrameServer;
import org.fawnpack.kv.wire.MessageType;
import org.fawnpack.kv.wire.ProtocolLimits;
import org.fawnpack.kv.wire.StatsReport;
import org.fawnpack.kv.wire.Timeouts;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A FAWN-KV back-end: one FAWN-DS file per arc of the ring it stores, as head, middle or tail
 * of the arc's chain. The head numbers a write with its own datastore's sequence and forwards
 * it; each member stores it under that number and forwards it; the tail makes it durable and
 * answers, and the answer travels back up the chain to the head, which answers the front-end.
 * Gets are served by the tail, which holds only writes the whole chain has.
 *
 * <p>Each epoch of the ring may shrink chains (a member went down); a member whose successor
 * changed resends its sent list to the new one ({@link ChainForwarder}). A member named as
 * copying an arc fetches the tail's file ({@link ArcReceiver}, {@link ArcSource}); once the
 * ring lets it serve, it answers no get of that arc until its predecessor's CHAIN_SYNC. A
 * joined back-end's virtual nodes make each member split its own files ({@link ArcSplits});
 * an arc the ring no longer has it serve is closed ({@link RetiredArcs}). Puts and deletes at
 * a head are {@link HeadWrites}'; writes from a predecessor {@link ChainMessages}'. A request
 * routed by another epoch than this back-end's is answered STALE_RING with this back-end's
 * epoch, so the front-end reroutes, and so is a chain message from a member on another epoch
 * (its sender sends it again); a member that is not where the ring says answers REFUSED.
 */
public final class Backend implements Closeable, RingFollower.RingUser {
  private static final Logger LOG = LoggerFactory.getLogger(Backend.class);
  /** How long a get of a fresh copy waits for the predecessor's CHAIN_SYNC. */
  static final long SYNC_WAIT_MS = 2_000;

  private final String id;
  private final Path dir;
  private final DatastoreConfig config;
  /** The arcs' shared journal ({@code fawn.kv.sync.journal}), or null. */
  private final Journal journal;
  private final FrameServer server;
  private final Map<Long, ArcStore> arcs = new ConcurrentHashMap<>();
  private final ChainForwarder forwarder;
  private final ArcSource source;
  private final ArcReceiver receiver;
  private final RequestCounts counts = new RequestCounts();
  private volatile NodeEnergy energy = NodeEnergy.NONE;
  private final ChainMessages chainMessages;
  private final HeadWrites headWrites;
  private volatile Ring ring;
  private volatile Member self;
  private volatile int advertisedPort;
  private volatile String domain; // null: its host
  private Closeable metrics = () -> { };
  /**
   * The last run did not stop cleanly: its files serve nothing ({@link CleanShutdown}), until
   * a ring brings it back and it copies its arcs afresh.
   */
  private final CrashedRun crashedRun;
  private volatile OrphanReporter orphanReporter = lastSequences -> { };
  private final RetiredArcs retired;
  private final ArcScans scans;
  private final ScheduledExecutorService timer;
  private final SliceFence fence;
  private final TailReads tailReads;
  private final ArcsOfRing arcsOfRing;
  private final BulkLoads bulkLoads;
  private final TailLease tailLease;
  private final RequestDispatch requests;
  /** Null until {@link #compactWith}: the cluster does not compact. */
  private volatile ArcCompactions compactions;

  private Backend(String id, InetSocketAddress bind, Path dir, DatastoreConfig config,
      ClusterSecret secret, boolean crashed, Backoffs backoffs, Timeouts timeouts)
      throws IOException {
    this.id = id;
    this.dir = dir;
    this.journal = config.journal();
    this.config = config;
    this.tailLease = new TailLease(id);
    // What a forward's answer runs never blocks (ChainForwarder, ChainMessages): on the loop.
    this.forwarder = new ChainForwarder("backend " + id, new ConnectionPool(Duration.ofSeconds(5),
        ProtocolLimits.MAX_FRAME_BYTES, secret, Connection.ReplyThread.EVENT_LOOP),
        backoffs.chainResend(), backoffs.cluster());
    // Gets and writes on the event loop (a write to a busy arc moves: WouldBlockException).
    this.server = new FrameServer("backend " + id, bind, ProtocolLimits.MAX_FRAME_BYTES, secret,
        this::handle).handleOnEventLoop(MessageType.GET, MessageType.DIRECT_GET,
            MessageType.PUT, MessageType.DELETE, MessageType.CHAIN_PUT, MessageType.CHAIN_DELETE);
    this.source = new ArcSource("backend " + id, dir);
    this.receiver = new ArcReceiver(id, dir,
        new ConnectionPool(Duration.ofSeconds(5), ProtocolLimits.MAX_FRAME_BYTES, secret),
        arcs::containsKey, this::installCopy, this::discardCopy, backoffs.copy(), timeouts);
    this.timer = Executors.newSingleThreadScheduledExecutor(new DefaultThreadFactory(
        "fawn-kv-timer-" + id, true));
    this.chainMessages = new ChainMessages(id, arcs, forwarder, counts,
        () -> self, tailLease, timer);
    this.fence = new SliceFence(id, arcs, () -> self, timer);
    this.crashedRun = new CrashedRun(id, dir, config, crashed, timer, this);
    MissingArcs missing = new MissingArcs(id, crashedRun::crashed);
    this.bulkLoads = new BulkLoads(id, dir, arcs, forwarder, chainMessages, () -> self, config);
    this.headWrites = new HeadWrites(id, arcs, forwarder, counts, chainMessages, () -> self,
        fence, missing, bulkLoads);
    this.tailReads = new TailReads(id, arcs, counts, missing, () -> self,
        bulkLoads, tailLease, timer, this::handle);
    this.retired = new RetiredArcs(id, dir);
    this.scans = new ArcScans(id, arcs, bulkLoads);
    bulkLoads.dispatchTo(this::handle);
    this.arcsOfRing = new ArcsOfRing(id, dir, config, arcs, forwarder, crashedRun, retired);
    this.requests = new RequestDispatch(id, () -> ring, () -> self, arcs, tailReads, headWrites,
        chainMessages, scans, fence, source, bulkLoads, () -> report(energy).encode());
  }

  /**
   * As the other {@code open}, its retry loops pausing by {@link Backoffs#DEFAULTS}, its waits
   * for answers {@link Timeouts#DEFAULTS}.
   */
  public static Backend open(String id, InetSocketAddress bind, Path dir, DatastoreConfig config,
      ClusterSecret secret) throws IOException {
    return open(id, bind, dir, config, secret, Backoffs.DEFAULTS, Timeouts.DEFAULTS);
  }

  /**
   * Listens on {@code bind} (port 0: any) at once, for peers that prove {@code secret}; serves
   * once it has a ring; its retry loops pause by {@code backoffs} ({@code fawn.kv.backoff.*})
   * and it waits for its peers' answers as {@code timeouts} say ({@code fawn.kv.timeout.*}).
   */
  public static Backend open(String id, InetSocketAddress bind, Path dir, DatastoreConfig config,
      ClusterSecret secret, Backoffs backoffs, Timeouts timeouts) throws IOException {
    Files.createDirectories(dir);
    boolean crashed = CleanShutdown.crashedBefore(dir);
    if (crashed) {
      LOG.warn("backend {}: its last run on {} did not stop cleanly, so its files may lack"
          + " writes it had passed on; it serves none of them (fail-stop: the coordinator"
          + " marks it down and its arcs are re-replicated)", id, dir);
    }
    DatastoreConfig arcConfig = ArcJournal.openFor(dir, config);
    Backend backend;
    try {
      backend = new Backend(id, bind, dir, arcConfig, secret, crashed, backoffs, timeouts);
      backend.server.start();
    } catch (IOException | RuntimeException e) {
      ArcJournal.closeOpenedFor(arcConfig, config, e);
      throw e;
    }
    backend.metrics = org.fawnpack.kv.metrics.Jmx.register("Backend-" + id, new BackendMetrics(
        id, backend.counts, () -> backend.report(NodeEnergy.NONE), backend::epoch,
        backend::bytesCopiedIn, backend.journal));
    return backend;
  }

  /**
   * Takes no write from now on until {@link #fenceLearned}: this back-end follows front-ends'
   * slices through ZooKeeper and has no session (yet, or any more) whose slice map it read.
   */
  public void fenceUnknown() {
    fence.unknown();
  }

  /**
   * The slice map's epoch, read after this back-end's registration was made in its current
   * ZooKeeper session: writes admitted under older epochs are refused from now on.
   */
  public void fenceLearned(long sliceEpoch) {
    fence.learned(sliceEpoch);
  }

  /** The slice epoch below which this back-end refuses writes (see {@link SliceFence}). */
  public long sliceFence() {
    return fence.fence();
  }

  /** Where this back-end says it holds every arc it copies (the coordinator listens there). */
  public void reportCopiesTo(ArcReceiver.CopyReporter reporter) {
    receiver.reportTo(reporter);
  }

  /** Bytes of arc files this back-end received by whole-file transfer since it started. */
  public long bytesCopiedIn() {
    return receiver.bytesReceived();
  }

  /** Its last run here did not stop cleanly: it serves none of its files (fail-stop). */
  public boolean crashedBefore() {
    return crashedRun.crashed();
  }

  /**
   * Runs {@code action} once this back-end, after a crash, was brought back by the ring and
   * threw its old files away (it serves only fresh copies from then on): its registration
   * should stop saying "crashed". At once when that happened already.
   */
  public synchronized void whenCrashFilesReplaced(Runnable action) {
    crashedRun.whenReplaced(action);
  }

  /** Where it reports what it holds of arcs every serving member of which went down. */
  public void reportOrphanFilesTo(OrphanReporter reporter) {
    this.orphanReporter = reporter;
  }

  /** Every member forces a write before it answers ({@code fawn.kv.durability}), or the tail. */
  public void durableAtEveryMember(boolean everyMember) {
    chainMessages.durableAtEveryMember(everyMember);
  }

  /** Compacts its arc files from now on by {@code settings}: see {@link ArcCompactions}. */
  public synchronized void compactWith(CompactionSettings settings) {
    if (compactions != null) {
      compactions.close();
    }
    compactions = new ArcCompactions(id, arcs, () -> self, scans, settings);
  }

  /** Follows the cluster's bulk loads in {@code directory}: see {@link BulkLoads#follow}. */
  public void followBulkLoads(BulkLoadDirectory directory) throws IOException {
    bulkLoads.follow(directory);
  }

  /**
   * Answers clients' gets sent straight to it as a tail (DIRECT_GET) under a read lease of
   * {@code leaseMs} renewed through {@code probe}, and holds arcs whose tail moved here for as
   * long: see {@link TailLease}. Call before it takes its first ring.
   */
  public void leaseTailReads(long leaseMs, RingEpochProbe probe) {
    tailLease.enable(leaseMs);
    tailLease.renewWith(probe, this::epoch);
  }

  /** Whether it answers direct gets now: its tail read lease is on and held. */
  public boolean holdsTailReadLease() {
    return tailLease.directGetRefusal(epoch()) == null;
  }

  /** Its node's energy in STATS answers comes from {@code source} (queries per joule). */
  public void meterEnergyWith(NodeEnergy source) {
    this.energy = source;
  }

  /**
   * Other nodes reach this back-end at {@code port} of its host, not at the port it listens on
   * (a proxy or a port forward in between); call before it registers. 0: the listening port.
   */
  public void advertisePort(int port) {
    if (port < 0 || port > 65_535) {
      throw new IllegalArgumentException("an advertised port is 0..65535: " + port);
    }
    advertisedPort = port;
  }

  /** Its failure domain ({@link Member}); null: its host. Call before it registers. */
  public void placeInDomain(String failureDomain) {
    domain = failureDomain;
  }

  /** This back-end as a ring member: its id, host, the port others reach it at, its domain. */
  public Member member() {
    InetSocketAddress address = server.address();
    return new Member(id, address.getAddress().getHostAddress(),
        advertisedPort > 0 ? advertisedPort : address.getPort(), domain);
  }

  /**
   * Serves {@code next} from now on: splits the files of arcs a joined back-end cuts
   * ({@link ArcSplits}), gives the arcs it has their new chains (resending sent
   * lists to new successors), opens a file for every arc of its first ring whose chain holds
   * it (or of the first that names it at this address, when it restarted on another port:
   * files it has), and starts copying the arcs the ring names it as copying; an epoch not
   * newer than the current one is ignored. After a crash it opens none ({@link CleanShutdown}).
   */
  @Override
  public synchronized void useRing(Ring next) throws IOException {
    if (ring != null && next.epoch() <= ring.epoch()) {
      return; // a watch may deliver an epoch late
    }
    ArcCompactions compacting = compactions;
    if (compacting == null) {
      applyRing(next);
      return;
    }
    compacting.ringChangeStarts(); // a split or retirement must not wait for a compaction
    try {
      applyRing(next);
    } finally {
      compacting.ringChangeEnds();
    }
  }

  private void applyRing(Ring next) throws IOException {
    boolean first = ring == null;
    Member me = member();
    // Restarted on another port, it is not in its first ring under this address: the epoch
    // that follows it there is its first as a member, and its files are its own.
    boolean arriving = first || !ring.members().contains(me);
    forwarder.use(me);
    tailLease.ringChanging(ring, next, me); // before any arc takes its new chain
    crashedRun.beforeRing(next);
    ArcMerges.mergeAbsorbedArcs(id, dir, arcs, next, config, retired);
    ArcSplits.splitCutArcs(id, dir, arcs, next, config);
    Set<Long> beingCopied = arcsOfRing.apply(next, me, first, arriving);
    for (long end : crashedRun.recoveryOver(next)) {
      if (!arcs.containsKey(end) && !next.pendingArcsOf(id).contains(end)) {
        retired.add(end); // kept for a recovery another member's file won
      }
    }
    self = me;
    ring = next;
    retired.deleteWhenNotNeeded(next, end -> crashedRun.keeps(next, end));
    crashedRun.reportSoon(next, () -> ring, orphanReporter);
    source.keepOnlyArcsBeingCopied(beingCopied);
    receiver.ringChanged(next);
    LOG.info("backend {}: {} arcs of {}", id, arcs.size(), next);
  }

  private StatsReport report(NodeEnergy meter) {
    return counts.report(self, arcs.values(), meter, bytesCopiedIn(), compactions);
  }

  /** Closes and forgets a copy made from a tail that is gone (the receiver copies again). */
  private synchronized void discardCopy(long arcEnd) throws IOException {
    ArcStore arc = arcs.get(arcEnd);
    if (arc != null && !arc.chain().members().contains(self)) {
      arcs.remove(arcEnd);
      arc.close();
    }
  }

  /** Serves the arc ending at {@code arcEnd} from the file the receiver copied. */
  private synchronized void installCopy(long arcEnd, byte[] recentWrites) throws IOException {
    ArcStore arc = ArcStore.open(dir, ring.chainFor(arcEnd), ring.epoch(), config);
    arc.adoptRecent(recentWrites);
    arc.awaitSync();
    arc.copied();
    arcs.put(arcEnd, arc);
  }

  /** The file a back-end with data directory {@code dir} keeps the arc ending at {@code end} in. */
  public static Path arcFileOf(Path dir, long end) {
    return ArcStore.fileOf(dir, end);
  }

  /** The arc ending at {@code arcEnd} this back-end holds, or null (tests hold its locks). */
  ArcStore arc(long arcEnd) {
    return arcs.get(arcEnd);
  }

  /** The epoch it serves, or -1 before it has a ring. */
  public long epoch() {
    Ring current = ring;
    return current == null ? -1 : current.epoch();
  }

  private void handle(Frame request, FrameServer.Replies replies) throws IOException {
    requests.handle(request, replies);
  }

  @Override
  public void close() throws IOException {
    if (compactions != null) {
      compactions.close();
    }
    metrics.close();
    server.close();
    receiver.close();
    timer.shutdownNow();
    scans.close();
    tailLease.close();
    bulkLoads.close();
    forwarder.close();
    source.close();
    IOException first = ArcJournal.closeArcsThenJournal(arcs.values(), journal);
    if (first != null) {
      throw first;
    }
    CleanShutdown.mark(dir);
  }
}

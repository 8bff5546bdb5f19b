package org.fawnpack.kv.backend;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.fawnpack.kv.copy.SourceBehindException;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.wire.ConnectionPool;
import org.fawnpack.kv.wire.Timeouts;
import org.fawnpack.kv.time.Backoff;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The copier's side of chain extension (and of a down member coming back): for every arc the
 * ring names this back-end as copying, once the chain's tail holds every write its head has
 * (ARC_LAST to the head, which answers once that is so), fetches the arc's file from the tail (ARC_SNAPSHOT, then ARC_CHUNK
 * pieces with a few in flight, {@link SnapshotFetch}, then ARC_RELEASE), writes it beside its
 * final name, forces it, moves it into place checkpoint first, and hands it to the back-end
 * with the tail's recent-writes table. When it holds every arc it copies in the current epoch
 * it reports so ({@link CopyReporter}); the coordinator then lets it serve; a joining
 * back-end reports once the arcs its join froze have settled. A failed copy (the tail went, a
 * link broke) is tried again after the copy backoff's pause ({@code fawn.kv.backoff.copy.*}:
 * 50 ms, doubling to 500), from whichever member is the tail by then; while a member is on
 * another epoch, after its first pause each time. A finished copy whose source is no longer the arc's tail is thrown away
 * and made again from the new tail: the old tail may have taken writes after the snapshot
 * that only it kept for this copier.
 */
final class ArcReceiver implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(ArcReceiver.class);
  /**
   * Arcs copied at once. One at a time left the copier idle through each arc's round trips,
   * snapshot, force and install (tens of milliseconds an arc, measured 2026-11-29: 14 arcs of a
   * join took 1.7 s one after another); several at once, ordered so that they come from
   * different tails where they can, overlap those waits. (On two shared cores the gain was
   * within the benchmark's run-to-run spread: benchmarks.md, "joins and failures".)
   */
  static final int COPIES_AT_ONCE = 3;

  /**
   * Where a finished copy is reported: the coordinator waits for it. {@code arcs}: how many
   * this back-end copies in {@code epoch}; {@code bytes}: all it received since it started.
   */
  @FunctionalInterface
  public interface CopyReporter {
    void copied(long epoch, int arcs, long bytes) throws IOException;
  }

  /** The back-end's side: closes and forgets its copy of the arc ending at an end. */
  @FunctionalInterface
  interface ArcAction {
    void apply(long arcEnd) throws IOException;
  }

  /** The back-end's side: opens its copy of an arc, with the source's recent-writes table. */
  @FunctionalInterface
  interface CopyInstaller {
    void install(long arcEnd, byte[] recentWrites) throws IOException;
  }

  private final String id;
  private final Path dir;
  private final ConnectionPool sources;
  private final java.util.function.LongPredicate held;
  private final CopyInstaller install;
  private final ArcAction discard;
  /** Arc end to the member each finished copy came from. */
  private final Map<Long, String> copiedFrom = new ConcurrentHashMap<>();
  private final ScheduledExecutorService worker;
  private final ExecutorService copyPool;
  private final ArcCopy copies;
  private volatile CopyReporter reporter = (epoch, count, bytes) -> { };
  private volatile Ring ring;
  private long reportedEpoch = -1;
  private final AtomicBoolean retryPending = new AtomicBoolean();
  /** Tries in a row that failed, for the pause before the next. */
  private final AtomicInteger failedTries = new AtomicInteger();
  /** Tries in a row a member answered STALE_RING (it has not taken the epoch yet). */
  private final AtomicInteger behindTries = new AtomicInteger();
  /** Between tries of a failed copy. */
  private final Backoff pauses;
  private long bytesReceived;

  /** {@code held} says whether the back-end serves an arc already (by its end). */
  ArcReceiver(String id, Path dir, ConnectionPool sources, java.util.function.LongPredicate held,
      CopyInstaller install, ArcAction discard, Backoff pauses, Timeouts timeouts) {
    this.id = id;
    this.pauses = pauses;
    this.dir = dir;
    this.sources = sources;
    this.held = held;
    this.install = install;
    this.discard = discard;
    this.worker = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "fawn-kv-copy-" + id);
      t.setDaemon(true);
      return t;
    });
    AtomicInteger copiers = new AtomicInteger();
    this.copyPool = Executors.newFixedThreadPool(COPIES_AT_ONCE, r -> {
      Thread t = new Thread(r, "fawn-kv-copy-" + id + "-" + copiers.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    this.copies = new ArcCopy(id, dir, sources, timeouts);
  }

  void reportTo(CopyReporter copyReporter) {
    this.reporter = copyReporter;
  }

  /** A new epoch: copy what it names, in the background. */
  void ringChanged(Ring next) {
    ring = next;
    run(this::copyPending, 0);
  }

  /** Bytes received by finished copies since start (for tests and stats). */
  synchronized long bytesReceived() {
    return bytesReceived;
  }

  private void run(Runnable task, long delayMs) {
    try {
      worker.schedule(task, delayMs, TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.RejectedExecutionException closed) {
      LOG.debug("backend {}: closed, no copy", id);
    }
  }

  private void copyPending() {
    Ring current = ring;
    if (current != null && current.joining().stream().anyMatch(m -> m.id().equals(id))) {
      awaitFrozenArcsSettled(current, current.frozen(), "its join froze");
      return;
    }
    if (current != null && current.pendingArcsOf(id).isEmpty()
        && !current.removing().isEmpty()) {
      // A removal: the head of each frozen arc says when its writes settled.
      Set<Long> headed = new java.util.HashSet<>();
      for (long end : current.frozen()) {
        Chain chain = current.chainFor(end);
        if (!chain.isEmpty() && chain.head().id().equals(id)) {
          headed.add(end);
        }
      }
      if (!headed.isEmpty()) {
        awaitFrozenArcsSettled(current, headed, "a removal froze and it heads");
      }
      return;
    }
    if (current == null || current.pendingArcsOf(id).isEmpty()) {
      return;
    }
    int count = 0;
    long bytes = 0;
    long total;
    int orphaned = 0;
    try {
      List<Chain> toCopy = new ArrayList<>();
      for (long arcEnd : current.pendingArcsOf(id)) {
        Chain chain = current.chainFor(arcEnd);
        if (chain.isEmpty()) {
          orphaned++; // no member to copy from until the ring names its recovery source
          continue;
        }
        String source = copiedFrom.get(arcEnd);
        if (held.test(arcEnd) && source != null && !source.equals(chain.tail().id())) {
          LOG.info("backend {}: copied arc {} from {}, whose place {} took; copying again",
              id, chain.range(), source, chain.tail().id());
          discard.apply(arcEnd);
          copiedFrom.remove(arcEnd);
        }
        if (!held.test(arcEnd)) {
          toCopy.add(chain);
        }
      }
      AtomicLong received = new AtomicLong();
      boolean all = copyAll(current, CopyOrder.interleavingTails(toCopy), received);
      if (!all) {
        return; // a newer epoch has its own run
      }
      bytes = received.get();
      count = toCopy.size();
      failedTries.set(0);
      behindTries.set(0);
      synchronized (this) {
        total = bytesReceived;
        if (reportedEpoch == current.epoch() || orphaned > 0) {
          if (orphaned > 0) {
            LOG.info("backend {}: {} of the arcs it copies in epoch {} have no live member;"
                + " it copies them once the ring names where each is recovered from", id,
                orphaned, current.epoch());
          }
          return;
        }
        reportedEpoch = current.epoch();
      }
      reporter.copied(current.epoch(), current.pendingArcsOf(id).size(), total);
      LOG.info("backend {}: holds the {} arcs it copies in epoch {} ({} arcs, {} bytes copied"
          + " now)", id, current.pendingArcsOf(id).size(), current.epoch(), count, bytes);
    } catch (SourceBehindException e) {
      askAgainSoon(e);
    } catch (IOException | RuntimeException e) {
      long pause = nextPauseMs();
      LOG.warn("backend {}: copying arcs in epoch {} failed ({}); trying again in {} ms", id,
          current.epoch(), e.getMessage(), pause);
      retryLater(pause);
    }
  }

  /**
   * This back-end is joining (or heads arcs a removal froze): once every one of {@code arcs}
   * holds at its tail every write its head took (so each replica will split or merge the same
   * records), it reports so for this epoch, and the coordinator goes on with the change.
   */
  private void awaitFrozenArcsSettled(Ring current, Set<Long> arcs, String which) {
    try {
      for (long end : arcs) {
        if (ring != current) {
          return; // a newer epoch has its own run
        }
        copies.awaitNoWriteOnItsWay(current, current.chainFor(end));
      }
      failedTries.set(0);
      behindTries.set(0);
      synchronized (this) {
        if (reportedEpoch == current.epoch()) {
          return;
        }
        reportedEpoch = current.epoch();
      }
      reporter.copied(current.epoch(), 0, bytesReceived());
      LOG.info("backend {}: the {} arcs {} have settled (epoch {})", id, arcs.size(), which,
          current.epoch());
    } catch (SourceBehindException e) {
      askAgainSoon(e);
    } catch (IOException | RuntimeException e) {
      long pause = nextPauseMs();
      LOG.warn("backend {}: the arcs {} have not settled in epoch {} ({}); looking again in {}"
          + " ms", id, which, current.epoch(), e.getMessage(), pause);
      retryLater(pause);
    }
  }

  /**
   * A member is on another epoch (in a join, members split their files before they take it):
   * asked again in 50 ms, logged every 100 tries.
   */
  private void askAgainSoon(SourceBehindException e) {
    int tries = behindTries.incrementAndGet();
    if (tries % 100 == 0) {
      LOG.warn("backend {}: {}, still after {} tries", id, e.getMessage(), tries);
    }
    retryLater(pauses.firstPauseMs());
  }

  private void retryLater(long pauseMs) {
    if (retryPending.compareAndSet(false, true)) { // one retry at a time, however many rings
      run(() -> {
        retryPending.set(false);
        copyPending();
      }, pauseMs);
    }
  }

  /** The copy backoff's pause after this many failures in a row (50, 100, ... 500 ms). */
  private long nextPauseMs() {
    return pauses.pauseAfter(Math.min(failedTries.incrementAndGet(), 64));
  }

  /**
   * Copies {@code chains}' arcs, {@link #COPIES_AT_ONCE} at a time, each on the copy pool,
   * adding the bytes of each finished one to {@code received} and to the total received;
   * waits for every one, then throws the first failure (a source still on another epoch
   * first, so that it is asked again soon). False when a newer epoch came before all started.
   */
  private boolean copyAll(Ring current, List<Chain> chains, AtomicLong received)
      throws IOException {
    List<Future<Boolean>> running = new ArrayList<>();
    for (Chain chain : chains) {
      running.add(copyPool.submit(() -> {
        if (ring != current) {
          return false;
        }
        long arcEnd = chain.range().endInclusive();
        long bytes = copies.copy(current, chain, install);
        copiedFrom.put(arcEnd, chain.tail().id());
        received.addAndGet(bytes);
        synchronized (this) {
          bytesReceived += bytes; // counted as each copy ends, whatever the others do
        }
        return true;
      }));
    }
    IOException failed = null;
    boolean all = true;
    for (Future<Boolean> f : running) {
      try {
        all &= Boolean.TRUE.equals(f.get());
      } catch (ExecutionException e) {
        if (e.getCause() instanceof Error error) {
          throw error; // not a failed copy to try again: the JVM is in trouble
        }
        IOException cause = e.getCause() instanceof IOException io ? io
            : new IOException(e.getCause().toString(), e.getCause());
        if (failed == null || (cause instanceof SourceBehindException
            && !(failed instanceof SourceBehindException))) {
          failed = cause;
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted copying arcs", e);
      }
    }
    if (failed != null) {
      throw failed;
    }
    return all;
  }

  @Override
  public void close() {
    copyPool.shutdownNow();
    worker.shutdownNow();
    sources.close();
  }
}

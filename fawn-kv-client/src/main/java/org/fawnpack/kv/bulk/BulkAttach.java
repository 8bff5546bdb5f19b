package org.fawnpack.kv.bulk;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.store.KeyRange;
import org.fawnpack.kv.time.Backoff;
import org.fawnpack.kv.wire.BulkMessages;
import org.fawnpack.kv.wire.ConnectionPool;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.MessageType;
import org.fawnpack.kv.wire.Timeouts;
import org.fawnpack.kv.wire.Verb;
import org.fawnpack.kv.zookeeper.BulkLoadStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads whole FAWN-DS files into a running cluster, all arcs visible together or none: the
 * driver of a bulk load (a MapReduce job's commit, {@code ./fawn kv restore}).
 *
 * <ol>
 *   <li><b>Stage.</b> Under an ephemeral {@code bulkloads/<job>} ({@link BulkLoadStore}), each
 *   file goes in pieces to every serving member of its arc's chain, which keeps it beside the
 *   arc's file, checked and forced. An arc the ring no longer has (a join split it, a removal
 *   merged it) fails the load by name. Any failure here, or the driver's death (its session
 *   takes the node along), leaves nothing: the staged files are dropped.
 *   <li><b>Commit.</b> One ZooKeeper transaction makes the node persistent and committed:
 *   from here the load happens, whatever fails.
 *   <li><b>Gate.</b> Every live back-end and front-end is told: the loaded arcs serve no read
 *   and take no write until the release, and front-ends empty their caches.
 *   <li><b>Apply.</b> Each arc's head absorbs its staged file after its last write and passes
 *   the attach down its chain in sequence order ({@code BulkLoads} in the back-end).
 *   <li><b>Release.</b> The node goes and every back-end opens its gates.
 * </ol>
 * {@link #finish} is steps 3-5 alone, for a committed load whose driver died.
 */
public final class BulkAttach {
  private static final Logger LOG = LoggerFactory.getLogger(BulkAttach.class);
  /** Arcs applied at once: their heads are mostly different back-ends. */
  static final int APPLY_THREADS = 8;

  /** Where a staged file's bytes come from (a file on HDFS, a local file). */
  @FunctionalInterface
  public interface Source {
    InputStream open() throws IOException;
  }

  /** One arc's file: the arc, the file's bytes and CRC32C, and where to read it. */
  public record ArcFile(KeyRange range, long bytes, int crc32c, Source source) {}

  /** Where the cluster's current ring comes from. */
  @FunctionalInterface
  public interface RingSource {
    Ring current() throws IOException;
  }

  /** Where the registered front-ends are (name, host, port as ring-style members). */
  @FunctionalInterface
  public interface FrontEnds {
    List<Member> registered() throws IOException;
  }

  /** What a load did: arcs, bytes staged (on every replica), and the phases' times. */
  public record Result(String job, int arcs, long bytesStaged, long stageMillis,
      long applyMillis) {}

  private final BulkLoadStore loads;
  private final RingSource rings;
  private final FrontEnds frontEnds;
  private final ConnectionPool pool;
  private final Duration deadline;
  private final Backoff pauses;
  private volatile Timeouts timeouts = Timeouts.DEFAULTS;

  /**
   * A driver over {@code pool}; each phase after the commit keeps trying for {@code deadline}
   * (a chain being repaired, a member restarting) before it gives up, naming what is left,
   * pausing by the bulk defaults between tries.
   */
  public BulkAttach(BulkLoadStore loads, RingSource rings, FrontEnds frontEnds,
      ConnectionPool pool, Duration deadline) {
    this(loads, rings, frontEnds, pool, deadline, Backoff.BULK_STEP);
  }

  /** As above, pausing by {@code pauses} ({@code fawn.kv.backoff.bulk.*}) between tries. */
  public BulkAttach(BulkLoadStore loads, RingSource rings, FrontEnds frontEnds,
      ConnectionPool pool, Duration deadline, Backoff pauses) {
    this.pauses = java.util.Objects.requireNonNull(pauses, "pauses");
    this.loads = loads;
    this.rings = rings;
    this.frontEnds = frontEnds;
    this.pool = pool;
    this.deadline = deadline;
  }

  /**
   * Waits for each answer as {@code waits} say for its verb (never past the phase's deadline);
   * {@link Timeouts#DEFAULTS} until called. Returns this driver.
   */
  public BulkAttach answersWithin(Timeouts waits) {
    this.timeouts = java.util.Objects.requireNonNull(waits, "waits");
    return this;
  }

  /** Loads {@code files} (at most one per arc) as job {@code job}: {@link #prepare}, then {@link #finish}. */
  public Result load(String job, List<ArcFile> files) throws IOException {
    long started = System.nanoTime();
    Prepared prepared = prepare(job, files);
    long committed = System.nanoTime();
    finish(job, prepared.arcEnds());
    return new Result(job, prepared.arcEnds().size(), prepared.bytesStaged(),
        TimeUnit.NANOSECONDS.toMillis(committed - started),
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - committed));
  }

  /** A committed load: the arcs it loads and the bytes staged on their members. */
  public record Prepared(Set<Long> arcEnds, long bytesStaged) {}

  /**
   * Steps 1-2: stages {@code files} and commits. A failure before the commit abandons the
   * load (nothing visible, staged files dropped) and is thrown; after it returns, the load must
   * be finished ({@link #finish}, by this driver or another).
   */
  public Prepared prepare(String job, List<ArcFile> files) throws IOException {
    Ring ring = rings.current();
    Map<Long, ArcFile> byEnd = new LinkedHashMap<>();
    for (ArcFile file : files) {
      Chain chain = ring.chainFor(file.range().endInclusive());
      if (!chain.range().equals(file.range())) {
        throw new IOException("bulk load " + job + ": " + file.range() + " is not an arc of"
            + " ring epoch " + ring.epoch() + " (" + chain.range() + " is there: a join split"
            + " or a removal merged it since the files were made); make them again");
      }
      if (byEnd.put(file.range().endInclusive(), file) != null) {
        throw new IllegalArgumentException("bulk load " + job + ": two files for "
            + file.range());
      }
    }
    long started = System.nanoTime();
    loads.begin(job);
    long staged;
    try {
      staged = new BulkStager(rings, pool, this::await).stageAll(job, byEnd);
      loads.commit(job, byEnd.keySet());
    } catch (IOException | RuntimeException e) {
      abandon(job);
      throw e;
    }
    LOG.info("bulk load {}: {} arcs staged ({} bytes on every replica) and committed in {} ms",
        job, byEnd.size(), staged, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
    return new Prepared(Set.copyOf(byEnd.keySet()), staged);
  }

  /**
   * Steps 3-5 of a committed load: gate, apply, release. Each is safe to repeat (a head that
   * applied the load answers from its mark), so a second driver may finish a first one's.
   */
  public void finish(String job, Set<Long> arcEnds) throws IOException {
    long end = System.nanoTime() + deadline.toNanos();
    gateEverywhere(job, arcEnds, end);
    applyEverywhere(job, arcEnds, end);
    loads.remove(job); // from here a back-end that missed the release opens on its own check
    release(job);
    LOG.info("bulk load {}: visible on its {} arcs", job, arcEnds.size());
  }

  /** Drops a load that did not commit: its node, then its staged files wherever they are. */
  private void abandon(String job) {
    try {
      loads.remove(job);
    } catch (IOException e) {
      LOG.warn("bulk load {}: its staging node stays until this session ends: {}", job,
          e.getMessage());
    }
    release(job);
  }

  /**
   * Every live back-end, then every registered front-end. In that order: a front-end empties
   * its cache when told, and a get it sends after that must find the loaded arcs' tails gated
   * already, or it would cache a value the load then overwrites (the reader in
   * BulkAttachTest found this when both were told at once).
   */
  private void gateEverywhere(String job, Set<Long> arcEnds, long end) throws IOException {
    byte[] bytes = new BulkMessages.Gate(job, arcEnds).encode();
    gateAll(job, bytes, end, () -> {
      Ring ring = rings.current();
      List<Member> live = new ArrayList<>();
      for (Member m : ring.members()) {
        if (!ring.isDown(m.id())) {
          live.add(m);
        }
      }
      return live;
    });
    gateAll(job, bytes, end, frontEnds);
  }

  /** Until every node {@code nodes} lists now took the gate (one that went is left out). */
  private void gateAll(String job, byte[] bytes, long end, FrontEnds nodes) throws IOException {
    long pause = pauses.firstPauseMs();
    List<String> problems;
    while (!(problems = askAll(nodes.registered(), Verb.BULK_GATE, bytes, "gating"))
        .isEmpty()) {
      pause = pauseOrGiveUp(job, "gating its arcs", problems.get(problems.size() - 1), pause,
          end);
    }
  }

  /**
   * Sends one message to every node of {@code nodes} at once; returns what went wrong, a line
   * per node that did not answer OK (empty: all did).
   */
  private List<String> askAll(List<Member> nodes, Verb verb, byte[] bytes, String what) {
    List<CompletableFuture<Frame>> answers = new ArrayList<>();
    for (Member m : nodes) {
      answers.add(pool.to(m).send(verb.id(), 0, bytes));
    }
    List<String> problems = new ArrayList<>();
    for (int i = 0; i < nodes.size(); i++) {
      try {
        Frame answer = await(answers.get(i), verb, nodes.get(i), what);
        if (answer.type() != MessageType.OK) {
          problems.add(nodes.get(i) + " answered " + MessageType.name(answer.type()) + " "
              + MessageType.messageOf(answer));
        }
      } catch (IOException e) {
        problems.add(nodes.get(i) + ": " + e.getMessage());
      }
    }
    return problems;
  }

  /** Each arc's head absorbs at once (APPLY_THREADS at a time): the gates hold meanwhile. */
  private void applyEverywhere(String job, Set<Long> arcEnds, long end) throws IOException {
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors
        .newFixedThreadPool(Math.max(1, Math.min(APPLY_THREADS, arcEnds.size())), r -> {
          Thread t = new Thread(r, "fawn-kv-bulk-apply");
          t.setDaemon(true);
          return t;
        });
    try {
      List<java.util.concurrent.Future<?>> applies = new ArrayList<>();
      for (long arcEnd : new TreeSet<>(arcEnds)) {
        applies.add(pool.submit(() -> {
          applyAt(job, arcEnd, end);
          return null;
        }));
      }
      for (java.util.concurrent.Future<?> apply : applies) {
        BulkStager.await(apply, job);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private void applyAt(String job, long arcEnd, long end) throws IOException {
    byte[] bytes = new BulkMessages.Apply(job, arcEnd).encode();
    long pause = pauses.firstPauseMs();
    while (true) {
      Chain chain = rings.current().chainFor(arcEnd);
      Frame answer = null;
      String problem;
      if (chain.isEmpty()) {
        problem = "arc " + chain.range() + " has no live member";
      } else {
        try {
          answer = await(pool.to(chain.head()).send(MessageType.BULK_APPLY, 0, bytes),
              Verb.BULK_APPLY, chain.head(), "applying");
          problem = chain.head() + " answered " + MessageType.name(answer.type()) + " "
              + MessageType.messageOf(answer);
        } catch (IOException e) {
          problem = chain.head() + ": " + e.getMessage();
        }
      }
      if (answer != null && answer.type() == MessageType.OK) {
        return;
      }
      if (answer != null && answer.type() == MessageType.REFUSED) { // no staged file: for good
        throw new IOException("bulk load " + job + " is committed but cannot be applied to "
            + chain.range() + ": " + problem + "; its arcs stay gated (see"
            + " docs/operations.md, \"A bulk load that did not finish\")");
      }
      pause = pauseOrGiveUp(job, "applying it to the arc ending at " + Long.toHexString(arcEnd),
          problem, pause, end);
    }
  }

  /** Best effort: a back-end that misses it opens its gates on its own check. */
  private void release(String job) {
    try {
      for (String problem : askAll(new ArrayList<>(rings.current().members()),
          Verb.BULK_RELEASE, new BulkMessages.Release(job).encode(), "releasing")) {
        LOG.info("bulk load {}: {}; that back-end opens its gates on its own check", job,
            problem);
      }
    } catch (IOException e) {
      LOG.warn("bulk load {}: no ring to release it on ({}); the back-ends open their gates"
          + " on their own checks", job, e.getMessage());
    }
  }

  private long pauseOrGiveUp(String job, String what, String problem, long pause, long end)
      throws IOException {
    if (System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(pause) > end) {
      throw new IOException("bulk load " + job + " is committed but " + what + " did not"
          + " finish within " + deadline.toSeconds() + " s; last: " + problem + ". Its arcs"
          + " stay gated until it is finished (see docs/operations.md, \"A bulk load that"
          + " did not finish\")");
    }
    LOG.debug("bulk load {}: {}: {}; again in {} ms", job, what, problem, pause);
    try {
      Thread.sleep(pause); // a chain being repaired or a node restarting needs a moment
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("bulk load " + job + ": interrupted while "
          + what);
    }
    return pauses.next(pause);
  }

  Frame await(CompletableFuture<Frame> answer, Verb verb, Member from, String what)
      throws IOException {
    Duration wait = timeouts.within(verb, deadline);
    try {
      return answer.get(wait.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      answer.cancel(false);
      throw new IOException("no answer from " + from + " " + what + " (" + verb + ") within "
          + wait.toMillis() + " ms");
    } catch (ExecutionException e) {
      throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted " + what);
    }
  }
}

package org.fawnpack.kv.scan;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.store.KeyRange;
import org.fawnpack.kv.time.Backoff;
import org.fawnpack.kv.time.Backoffs;
import org.fawnpack.kv.wire.ConnectionPool;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.MessageType;
import org.fawnpack.kv.wire.Timeouts;
import org.fawnpack.kv.wire.Verb;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads every entry of a range of the ring from the tails of the arcs it spans, page by page,
 * straight from the back-ends (no front-end in the way). Each arc's part is read after the
 * sequence number its last page ended at, so when a tail fails, stalls, or the ring changes
 * under the scan (a new tail, a join that cut the arc), the reader asks the arc's tail in the
 * newest ring for the pages after that number, and loses or repeats no entry that was not
 * written during the scan. An entry written during the scan may be returned with its old or its
 * new value, or both, once each; a key deleted during it may be returned or not.
 *
 * <p>Read as of a cut ({@link Options#asOf}: a sequence number of the range's arc), the scan
 * returns exactly the entries of that instant, from any member of the chain (those on this
 * host first), and moves between members without losing or repeating any, writes or not; a
 * join that splits the arc ends it with an error (a split renumbers its lower part's writes).
 * A removal that merges an arc the scan has begun to read ends it with an error too, cut or
 * not (the merged arc numbers the merged-in writes anew).
 *
 * <p>A page that finds no member answering keeps trying, with pauses, for the failover wait;
 * then the scan fails, naming the range, the sequence number it had reached and the last
 * answer. Not thread-safe.
 */
public final class RangeScan {
  private static final Logger LOG = LoggerFactory.getLogger(RangeScan.class);

  /**
   * How a scan reads: page size, key prefix, a page's deadline, how long it fails over and
   * the pauses between its tries then ({@code fawn.kv.backoff.cluster.*}); the cut it reads
   * as of (0: the tail's view of now) and which hosts are this one (members there are asked
   * first when any member may serve).
   */
  public record Options(int pageBytes, byte[] prefix, Duration pageDeadline,
      Duration failoverWait, long cut, Predicate<String> localHost, Backoff failoverPauses) {
    /** With the default failover pauses. */
    public Options(int pageBytes, byte[] prefix, Duration pageDeadline, Duration failoverWait,
        long cut, Predicate<String> localHost) {
      this(pageBytes, prefix, pageDeadline, failoverWait, cut, localHost,
          Backoffs.DEFAULTS.cluster());
    }

    /** 1 MiB pages, no prefix, a page awaited as {@link Timeouts#DEFAULTS} say. */
    public static Options defaults() {
      return defaults(Timeouts.DEFAULTS);
    }

    /** 1 MiB pages, no prefix, each awaited for SCAN's wait in {@code timeouts}. */
    public static Options defaults(Timeouts timeouts) {
      return new Options(1 << 20, new byte[0], timeouts.of(Verb.SCAN), Duration.ofSeconds(60),
          0, host -> false);
    }

    public Options withPrefix(byte[] keyPrefix) {
      return new Options(pageBytes, keyPrefix, pageDeadline, failoverWait, cut, localHost,
          failoverPauses);
    }

    public Options withPageBytes(int bytes) {
      return new Options(bytes, prefix, pageDeadline, failoverWait, cut, localHost,
          failoverPauses);
    }

    /**
     * Reads as of sequence number {@code sequence} of the range's arc (its tail's last write
     * when the read was planned), from any member, those on {@code local} hosts first.
     */
    public Options asOf(long sequence, Predicate<String> local) {
      return new Options(pageBytes, prefix, pageDeadline, failoverWait, sequence, local,
          failoverPauses);
    }
  }

  /** The part of the range still to read within one arc, after a sequence number. */
  private static final class Part {
    final KeyRange range;
    long after;
    long scanId = ThreadLocalRandom.current().nextLong();
    double fractionRead;
    /** Tries that failed: which member of the chain is asked next. */
    int failures;
    /** The arc the part was first read from (null before): a removal may merge it later. */
    KeyRange arcRange;

    Part(KeyRange range, long after) {
      this.range = range;
      this.after = after;
    }
  }

  private final RingSource rings;
  private final ConnectionPool pool;
  private final KeyRange range;
  private final Options options;
  private final Deque<Part> parts = new ArrayDeque<>();
  /** The page being read, or null before the first. */
  private ScanPageReader page;
  private Ahead ahead;
  private double doneLength;
  private long retries;
  private long pages;

  public RangeScan(RingSource rings, ConnectionPool pool, KeyRange range, Options options) {
    this.rings = rings;
    this.pool = pool;
    this.range = range;
    this.options = options;
    parts.add(new Part(range, 0));
  }

  /** The next entry, copied out, or null when the range has no more. */
  public ScanPage.ScanEntry next() throws IOException {
    return advance() ? page.copy() : null;
  }

  /**
   * Moves to the next entry, false when the range has no more. Its key and value are then read
   * where they lie in the page's frame ({@link #current()}), until the next move: no copy per
   * entry for a reader that keeps neither (a record reader copies them into its own buffers).
   */
  public boolean advance() throws IOException {
    while (page == null || !page.advance()) {
      Part part = parts.peekFirst();
      if (part == null) {
        return false;
      }
      ScanPageReader fetched = fetch(part);
      if (fetched == null) {
        continue; // the part was cut where the ring's arcs now end
      }
      pages++;
      page = fetched;
      part.after = fetched.lastExamined();
      part.fractionRead = fetched.viewBytes() == 0 ? 1
          : (double) fetched.offsetReached() / fetched.viewBytes();
      if (fetched.done()) {
        parts.removeFirst();
        doneLength += Arcs.length(part.range);
      } else {
        askAhead(part); // the member reads the next page while this one is consumed
      }
    }
    return true;
  }

  /** The page the entry {@link #advance} moved to lies in: its array and offsets. */
  public ScanPageReader current() {
    return page;
  }

  /** A page asked for before it is needed: of which part, after which number, of whom. */
  private record Ahead(Part part, long after, Member member, long epoch,
      CompletableFuture<Frame> reply) {}

  private void askAhead(Part part) {
    Ring ring = rings.current();
    Chain chain = ring.chainFor(part.range.endInclusive());
    Member member = memberFor(chain, part);
    if (!chain.range().covers(part.range) || member == null) {
      return; // fetch sorts this out
    }
    // A failed connect fails the reply: fetch asks again, and counts it.
    CompletableFuture<Frame> reply = pool.to(member).send(MessageType.SCAN, ring.epoch(),
        request(part));
    ahead = new Ahead(part, part.after, member, ring.epoch(), reply);
  }

  private byte[] request(Part part) {
    return new ScanRequest(part.scanId, part.range, part.after, options.pageBytes(),
        options.prefix(), options.cut()).encode();
  }

  private Member memberFor(Chain chain, Part part) {
    return Replicas.pick(chain, options.cut() > 0, options.localHost(), part.failures);
  }

  /** The answer to the page asked ahead for {@code part}, or null when there is none. */
  private Frame aheadAnswer(Part part) throws IOException {
    Ahead asked = ahead;
    ahead = null;
    if (asked == null || asked.part() != part || asked.after() != part.after) {
      return null;
    }
    try {
      return asked.reply().get(options.pageDeadline().toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      asked.reply().cancel(false);
      throw new IOException("SCAN to " + asked.member() + " had no reply within "
          + options.pageDeadline().toMillis() + " ms");
    } catch (ExecutionException e) {
      throw new IOException(asked.member() + ": " + e.getCause().getMessage(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted waiting for " + asked.member(), e);
    }
  }

  /**
   * Pages asked again after a failure (a member gone, stalled or refusing, an epoch change):
   * each is a failover to the next member that may serve it.
   */
  public long retries() {
    return retries;
  }

  public long pages() {
    return pages;
  }

  /** The part of the range whose pages come next (inside one arc once asked), or null. */
  public KeyRange reading() {
    Part current = parts.peekFirst();
    return current == null ? null : current.range;
  }

  /** The share of the range read so far, 0..1 (by ring length, each arc's by log bytes). */
  public double progress() {
    Part current = parts.peekFirst();
    double reading = current == null ? 0 : Arcs.length(current.range) * current.fractionRead;
    return Math.min(1, (doneLength + reading) / Arcs.length(range));
  }

  /**
   * A removal merged the arc the part was being read from into a larger one, whose file
   * numbers the merged-in writes anew: a scan that has read some of it (or reads as of a cut)
   * cannot go on without losing or repeating entries, so it fails by name.
   */
  private void checkNotMerged(Part part, KeyRange arc, long epoch) throws IOException {
    if (part.arcRange != null && !part.arcRange.equals(arc)
        && (part.after > 0 || options.cut() > 0)) {
      throw new IOException("scan of " + part.range + (options.cut() > 0 ? " as of sequence "
          + options.cut() : " after sequence " + part.after) + ": a removal merged its arc "
          + part.arcRange + " into " + arc + " (epoch " + epoch + "), which numbers the merged"
          + " writes anew, so the scan cannot go on without repeating entries; scan again");
    }
    part.arcRange = arc;
  }

  /** The next page of {@code part}, or null when the part had to be cut into arcs first. */
  private ScanPageReader fetch(Part part) throws IOException {
    long deadline = System.nanoTime() + options.failoverWait().toNanos();
    long pause = options.failoverPauses().firstPauseMs();
    String problem;
    try {
      Frame early = aheadAnswer(part);
      if (early != null && early.type() == MessageType.SCAN_PAGE) {
        return new ScanPageReader(early);
      }
      if (early != null) {
        retries++;
        part.failures++;
        LOG.debug("scan of {}: the page asked ahead was answered {}", part.range,
            MessageType.name(early.type()));
      }
    } catch (IOException e) {
      retries++;
      part.failures++;
      LOG.debug("scan of {}: the page asked ahead failed: {}", part.range, e.getMessage());
    }
    while (true) {
      Ring ring = rings.current();
      Chain chain = ring == null ? null : ring.chainFor(part.range.endInclusive());
      if (chain != null && !chain.range().covers(part.range)) {
        if (options.cut() > 0) {
          // A split renumbers new writes in its lower part: the cut means nothing there.
          throw new IOException("scan of " + part.range + " as of sequence " + options.cut()
              + ": the ring split its arc since the cut was taken (epoch " + ring.epoch()
              + "), so the point-in-time read cannot go on; read again with a new cut");
        }
        cut(part, ring);
        return null;
      }
      if (chain != null) {
        checkNotMerged(part, chain.range(), ring.epoch());
      }
      if (chain == null || chain.isEmpty()) {
        problem = ring == null ? "no ring yet" : "arc " + chain.range() + " has no live member";
      } else {
        Member member = memberFor(chain, part);
        problem = null;
        try {
          Frame reply = pool.to(member).call(MessageType.SCAN, ring.epoch(), request(part),
              options.pageDeadline());
          if (reply.type() == MessageType.SCAN_PAGE) {
            return new ScanPageReader(reply);
          }
          problem = member + " answered " + MessageType.name(reply.type())
              + (reply.type() == MessageType.STALE_RING ? " (its epoch " + reply.epoch()
                  + ", the reader's " + ring.epoch() + ")" : ": " + MessageType.messageOf(reply));
        } catch (IOException e) {
          problem = member + ": " + e.getMessage();
        }
      }
      retries++;
      part.failures++;
      if (System.nanoTime() > deadline) {
        throw new IOException("scan of " + part.range + " after sequence " + part.after
            + ": no member served it within " + options.failoverWait().toSeconds() + " s; last: "
            + problem);
      }
      LOG.debug("scan of {} after sequence {}: {}; asking again in {} ms", part.range,
          part.after, problem, pause);
      try {
        // A bounded backoff: a stalled member may recover, a failed one needs the coordinator
        // to name a new tail; a watched ring source ends the wait when that epoch arrives.
        rings.awaitNewer(ring == null ? -1 : ring.epoch(), pause);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while the scan of " + part.range + " waited", e);
      }
      pause = options.failoverPauses().next(pause);
    }
  }

  /** Replaces {@code part} by its pieces in the arcs of {@code ring}, each after its number. */
  private void cut(Part part, Ring ring) {
    parts.removeFirst();
    List<KeyRange> pieces = Arcs.cut(part.range, ring);
    for (int i = pieces.size() - 1; i >= 0; i--) {
      parts.addFirst(new Part(pieces.get(i), part.after));
    }
    LOG.info("scan: {} spans {} arcs of epoch {}; reading each after sequence {}", part.range,
        pieces.size(), ring.epoch(), part.after);
  }
}

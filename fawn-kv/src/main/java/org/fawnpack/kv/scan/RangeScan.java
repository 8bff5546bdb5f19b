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
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.store.KeyRange;
import org.fawnpack.kv.wire.ConnectionPool;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.MessageType;
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
 * <p>A page that finds no tail answering keeps trying, with pauses, for the failover wait; then
 * the scan fails, naming the range, the sequence number it had reached and the last answer.
 * Not thread-safe.
 */
public final class RangeScan {
  private static final Logger LOG = LoggerFactory.getLogger(RangeScan.class);
  private static final long FIRST_PAUSE_MS = 20;
  private static final long MAX_PAUSE_MS = 500;

  /** How a scan reads: page size, key prefix, a page's deadline, and how long it fails over. */
  public record Options(int pageBytes, byte[] prefix, Duration pageDeadline,
      Duration failoverWait) {
    public static Options defaults() {
      return new Options(1 << 20, new byte[0], Duration.ofSeconds(30), Duration.ofSeconds(60));
    }

    public Options withPrefix(byte[] keyPrefix) {
      return new Options(pageBytes, keyPrefix, pageDeadline, failoverWait);
    }

    public Options withPageBytes(int bytes) {
      return new Options(bytes, prefix, pageDeadline, failoverWait);
    }
  }

  /** The part of the range still to read within one arc, after a sequence number. */
  private static final class Part {
    final KeyRange range;
    long after;
    long scanId = ThreadLocalRandom.current().nextLong();
    double fractionRead;

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
  private List<ScanPage.ScanEntry> page = List.of();
  private Ahead ahead;
  private int next;
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

  /** The next entry, or null when the range has no more. */
  public ScanPage.ScanEntry next() throws IOException {
    while (next == page.size()) {
      Part part = parts.peekFirst();
      if (part == null) {
        return null;
      }
      ScanPage fetched = fetch(part);
      if (fetched == null) {
        continue; // the part was cut where the ring's arcs now end
      }
      pages++;
      page = fetched.entries();
      next = 0;
      part.after = fetched.lastExamined();
      part.fractionRead = fetched.viewBytes() == 0 ? 1
          : (double) fetched.offsetReached() / fetched.viewBytes();
      if (fetched.done()) {
        parts.removeFirst();
        doneLength += Arcs.length(part.range);
      } else {
        askAhead(part); // the tail reads the next page while this one is consumed
      }
    }
    return page.get(next++);
  }

  /** A page asked for before it is needed: of which part, after which number, of whom. */
  private record Ahead(Part part, long after, Member tail, long epoch,
      CompletableFuture<Frame> reply) {}

  private void askAhead(Part part) {
    Ring ring = rings.current();
    Chain chain = ring.chainFor(part.range.endInclusive());
    if (!chain.range().covers(part.range) || chain.isEmpty()) {
      return; // fetch sorts this out
    }
    CompletableFuture<Frame> reply;
    try {
      reply = pool.to(chain.tail()).send(MessageType.SCAN, ring.epoch(), request(part));
    } catch (IOException e) {
      reply = CompletableFuture.failedFuture(e); // fetch asks again, and counts it
    }
    ahead = new Ahead(part, part.after, chain.tail(), ring.epoch(), reply);
  }

  private byte[] request(Part part) {
    return new ScanRequest(part.scanId, part.range, part.after, options.pageBytes(),
        options.prefix()).encode();
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
      throw new IOException("SCAN to " + asked.tail() + " had no reply within "
          + options.pageDeadline().toMillis() + " ms");
    } catch (ExecutionException e) {
      throw new IOException(asked.tail() + ": " + e.getCause().getMessage(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted waiting for " + asked.tail(), e);
    }
  }

  /**
   * Pages asked again after a failure (a tail gone, stalled or refusing, an epoch change):
   * each is a failover to whatever member is the arc's tail then.
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

  /** The next page of {@code part}, or null when the part had to be cut into arcs first. */
  private ScanPage fetch(Part part) throws IOException {
    long deadline = System.nanoTime() + options.failoverWait().toNanos();
    long pause = FIRST_PAUSE_MS;
    String problem;
    try {
      Frame early = aheadAnswer(part);
      if (early != null && early.type() == MessageType.SCAN_PAGE) {
        return ScanPage.decode(early);
      }
      if (early != null) {
        retries++;
        LOG.debug("scan of {}: the page asked ahead was answered {}", part.range,
            MessageType.name(early.type()));
      }
    } catch (IOException e) {
      retries++;
      LOG.debug("scan of {}: the page asked ahead failed: {}", part.range, e.getMessage());
    }
    while (true) {
      Ring ring = rings.current();
      Chain chain = ring == null ? null : ring.chainFor(part.range.endInclusive());
      if (chain != null && !chain.range().covers(part.range)) {
        cut(part, ring);
        return null;
      }
      if (chain == null || chain.isEmpty()) {
        problem = ring == null ? "no ring yet" : "arc " + chain.range() + " has no live member";
      } else {
        Member tail = chain.tail();
        problem = null;
        try {
          Frame reply = pool.to(tail).call(MessageType.SCAN, ring.epoch(), request(part),
              options.pageDeadline());
          if (reply.type() == MessageType.SCAN_PAGE) {
            return ScanPage.decode(reply);
          }
          problem = tail + " answered " + MessageType.name(reply.type())
              + (reply.type() == MessageType.STALE_RING ? " (its epoch " + reply.epoch()
                  + ", the reader's " + ring.epoch() + ")" : ": " + MessageType.messageOf(reply));
        } catch (IOException e) {
          problem = tail + ": " + e.getMessage();
        }
      }
      retries++;
      if (System.nanoTime() > deadline) {
        throw new IOException("scan of " + part.range + " after sequence " + part.after
            + ": no tail served it within " + options.failoverWait().toSeconds() + " s; last: "
            + problem);
      }
      LOG.debug("scan of {} after sequence {}: {}; asking again in {} ms", part.range,
          part.after, problem, pause);
      try {
        Thread.sleep(pause); // the coordinator needs time to name a new tail
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while the scan of " + part.range + " waited", e);
      }
      pause = Math.min(MAX_PAUSE_MS, pause * 2);
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

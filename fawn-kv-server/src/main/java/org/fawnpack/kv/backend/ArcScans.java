package org.fawnpack.kv.backend;

import static org.fawnpack.kv.wire.MessageType.refused;
import static org.fawnpack.kv.wire.MessageType.reply;

import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.scan.ScanRequest;
import org.fawnpack.kv.store.StoreView;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.FrameServer;
import org.fawnpack.kv.wire.MessageType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Range scans at an arc's tail. Only the tail serves them, as it serves gets: every record it
 * holds has passed the whole chain, so a scan never returns a write that a failure could still
 * take back. A scan as of a cut (a sequence number the tail had, so committed) is served by any
 * member that holds the cut, with exactly the entries of that instant. A scan's first page takes a {@link StoreView} of the arc's file and keeps it, with
 * the reading position, under the reader's scan id; each page goes on where the last ended. A
 * page that comes after another sequence number than the kept scan's (a reader that moved here
 * from a failed replica, or whose scan was dropped) starts a new view there: sequence numbers
 * are the same on every member of a chain, so the reader loses no entry and repeats none that
 * the scan's writes did not touch.
 *
 * <p>Views cost memory (a copy of the arc's index and a read buffer), so at most
 * {@link #MAX_SCANS} are kept, the least recently used dropped first, and one idle for
 * {@link #IDLE_MS} is dropped: its reader's next page starts a new view where it left off,
 * so a slow reader loses nothing but the view's instant.
 *
 * <p>Once a page has gone out, the next one of that scan is read at once, on a thread of its
 * own ({@link KeptScan#serve}), while the page travels and its reader works through it: the
 * reader asks for the next page only when it has this one (it must say where this one ended),
 * so without the read ahead the back-end and the reader would take turns, each idle while the
 * other works. A scan holds at most one page read ahead, so the kept scans hold at most
 * {@link #MAX_SCANS} pages.
 */
final class ArcScans {
  private static final Logger LOG = LoggerFactory.getLogger(ArcScans.class);
  static final int MAX_SCANS = 8;
  static final long IDLE_MS = 60_000;

  private final String id;
  private final Map<Long, ArcStore> arcs;
  /** Scan id to its kept view, in access order (guarded by itself). */
  private final LinkedHashMap<Long, KeptScan> scans = new LinkedHashMap<>(16, 0.75f, true);

  private final GatedArcs gated;
  /** Reads kept scans' next pages ahead (at most one per kept scan at a time). */
  private final ExecutorService readAhead;

  ArcScans(String id, Map<Long, ArcStore> arcs, GatedArcs gated) {
    this.gated = gated;
    this.id = id;
    this.arcs = arcs;
    this.readAhead = Executors.newCachedThreadPool(new DefaultThreadFactory(
        "fawn-kv-scan-ahead-" + id, true));
  }

  /**
   * Stops reading ahead; pages read ahead and not yet asked for are dropped. A page being read
   * finishes (milliseconds): interrupting it would close the arc's own file channel, which the
   * view reads through, under the back-end's clean close.
   */
  void close() {
    readAhead.shutdown();
    synchronized (scans) {
      scans.values().forEach(KeptScan::discard);
      scans.clear();
    }
  }

  void page(Ring ring, Member self, Frame request, FrameServer.Replies replies)
      throws IOException {
    ScanRequest scan = ScanRequest.decode(request.fields());
    Chain chain = ring.chainFor(scan.range().endInclusive());
    boolean atCut = scan.cut() > 0;
    String problem = !chain.range().covers(scan.range())
        ? "range " + scan.range() + " is not inside one arc of epoch " + ring.epoch() + " ("
            + chain.range() + " ends inside it)"
        : atCut ? (chain.members().contains(self) ? null : "backend " + id + " is not a member"
            + " of the chain of " + chain.range() + " " + chain.members())
        : chain.isEmpty() || !chain.tail().equals(self)
        ? "backend " + id + " is not the tail of " + chain.range() + " (" + (chain.isEmpty()
            ? "it has no live member" : chain.tail() + " is") + "), which serves its scans"
        : null;
    ArcStore arc = arcs.get(chain.range().endInclusive());
    if (problem == null && (arc == null || !arc.synced().isDone())) {
      problem = "backend " + id + " cannot read " + chain.range() + " yet: "
          + (arc == null ? "it has no file of it" : "a fresh copy, still without its"
              + " predecessor's CHAIN_SYNC");
    }
    if (problem == null) {
      String gate = gated.refusal(chain.range().endInclusive()); // a load becoming visible
      if (gate != null) {
        gated.holdUntilOpen(chain.range().endInclusive(), request, replies, gate);
        return;
      }
    }
    if (problem == null && atCut && arc.store().lastSequence() < scan.cut()) {
      problem = "backend " + id + " holds " + chain.range() + " up to sequence "
          + arc.store().lastSequence() + ", before the scan's cut " + scan.cut();
    }
    if (problem == null && atCut && scan.cut() < arc.store().historyFrom()
        && !keptAt(scan, arc)) {
      problem = historyGone(chain, arc.store().historyFrom(), scan.cut());
    }
    if (problem != null) {
      replies.send(refused(request, problem));
      return;
    }
    KeptScan kept = take(scan, arc);
    KeptScan.Page page;
    try {
      page = kept.serve(scan.pageBytes(), readAhead);
    } catch (java.nio.channels.ClosedChannelException e) {
      // A compaction swapped the file under the kept view: go on in a view of the new one
      // from the same point (a cut kept open here was pinned, so the new file answers it).
      StoreView view = arc.store().readView();
      if (atCut && scan.cut() < view.historyFrom()) {
        replies.send(refused(request, historyGone(chain, view.historyFrom(), scan.cut())));
        return;
      }
      kept.discard();
      kept = new KeptScan(scan, arc, view);
      page = kept.serve(scan.pageBytes(), readAhead);
    }
    if (!page.done()) {
      keep(scan.scanId(), kept);
    }
    String gatedNow = gated.refusal(chain.range().endInclusive()); // as TailReads: again
    if (gatedNow != null) {
      page.body().release();
      gated.holdUntilOpen(chain.range().endInclusive(), request, replies, gatedNow);
      return;
    }
    // The page goes from its buffer to the socket: no copy into an array on the way.
    replies.sendWithBody(reply(request, MessageType.SCAN_PAGE, new byte[0]), page.body());
  }

  private String historyGone(Chain chain, long historyFrom, long cut) {
    return "backend " + id + " holds " + chain.range() + " from sequence " + historyFrom
        + " on (a compaction dropped the versions older cuts need), after the scan's cut "
        + cut + ": a point-in-time read is kept answerable for fawn.kv.compaction"
        + ".cut-retention-ms after its cut is taken; read again with a new cut";
  }

  /** Whether a scan kept here goes on from {@code scan}'s point (its view predates any drop). */
  private boolean keptAt(ScanRequest scan, ArcStore arc) {
    synchronized (scans) {
      KeptScan kept = scans.get(scan.scanId());
      return kept != null && kept.continues(scan, arc);
    }
  }

  /**
   * The lowest cut of the scans kept open on {@code arc} (Long.MAX_VALUE when none): a
   * compaction keeps the history they need, so that their next view answers them too.
   */
  long lowestCut(ArcStore arc) {
    synchronized (scans) {
      long lowest = Long.MAX_VALUE;
      for (KeptScan s : scans.values()) {
        if (s.arc() == arc && s.cut() > 0) {
          lowest = Math.min(lowest, s.cut());
        }
      }
      return lowest;
    }
  }

  /** The kept scan that goes on from {@code scan}'s point, or a new one from there. */
  private KeptScan take(ScanRequest scan, ArcStore arc) throws IOException {
    synchronized (scans) {
      dropIdle();
      KeptScan kept = scans.remove(scan.scanId());
      if (kept != null && kept.continues(scan, arc)) {
        return kept;
      }
      if (kept != null) {
        kept.discard(); // a reader going on from another point: its page read ahead is moot
      }
    }
    StoreView view = arc.store().readView();
    LOG.debug("backend {}: scan {} of {} after sequence {} as of {}: a view to sequence {}",
        id, scan.scanId(), scan.range(), scan.afterSequence(), scan.cut(),
        view.lastSequence());
    return new KeptScan(scan, arc, view);
  }

  private void keep(long scanId, KeptScan scan) {
    synchronized (scans) {
      scans.put(scanId, scan);
      while (scans.size() > MAX_SCANS) {
        // Entries, not get(): a get would count as an access and reorder the map mid-walk.
        Iterator<Map.Entry<Long, KeptScan>> eldest = scans.entrySet().iterator();
        Map.Entry<Long, KeptScan> dropped = eldest.next();
        LOG.info("backend {}: drops the view of scan {}: more than {} scans open", id,
            dropped.getKey(), MAX_SCANS);
        dropped.getValue().discard();
        eldest.remove();
      }
    }
  }

  private void dropIdle() {
    long now = System.nanoTime();
    scans.values().removeIf(s -> {
      boolean idle = now - s.lastUsed() > IDLE_MS * 1_000_000;
      if (idle) {
        s.discard();
      }
      return idle;
    });
  }

  /** Scans whose views are kept (for tests and STATS). */
  int open() {
    synchronized (scans) {
      return scans.size();
    }
  }
}

package org.fawnpack.kv.backend;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.locks.ReentrantLock;
import org.fawnpack.kv.scan.ScanPageWriter;
import org.fawnpack.kv.scan.ScanRequest;
import org.fawnpack.kv.store.StoreView;

/**
 * One reader's scan kept between its pages at a back-end ({@link ArcScans}): its view of the
 * arc, the reading position, an entry that did not fit the last page, and the next page read
 * ahead while the last one travels.
 *
 * <p>The reading state is touched by one party at a time: a {@link #serve} holding the turn
 * with no page being read ahead, or the one read-ahead task that serve started last (a later
 * serve waits for that task's page before it reads on).
 */
final class KeptScan {
  /** Pages above this are not read ahead: each already amortizes a round trip over much. */
  static final int MAX_READ_AHEAD_PAGE_BYTES = 2 << 20;

  private final ScanRequest request;
  private final ArcStore arc;
  private final StoreView view;
  private final StoreView.Entries entries;
  private final ReentrantLock turn = new ReentrantLock();
  /**
   * Page buffers: off the heap, each freed when released or, should a path miss that, when
   * collected. A scan's pages cycle through the writer's own two ({@link ScanPageWriter}); a
   * pool would add nothing for buffers this large (its chunk goes as each page is released).
   */
  private static final ByteBufAllocator PAGE_BUFFERS =
      new UnpooledByteBufAllocator(true, false, false);

  /** Writes every page of this scan, one at a time (released by {@link #discard} or the end). */
  private final ScanPageWriter writer = new ScanPageWriter(PAGE_BUFFERS);
  private StoreView.Entry carried;
  /** Where the reading stopped (after the page read ahead, when there is one). */
  private long lastExamined;
  /** Where the last page served ended: the point a reader's next request goes on from. */
  private volatile long servedUpTo;
  private volatile long lastUsed = System.nanoTime();
  /** The next page being read ahead, or null (guarded by {@link #turn}). */
  private CompletableFuture<Page> ahead;

  KeptScan(ScanRequest request, ArcStore arc, StoreView view) throws IOException {
    this.request = request;
    this.arc = arc;
    this.view = view;
    this.entries = request.cut() > 0
        ? view.entriesAt(request.cut(), request.afterSequence(), request.range())
        : view.entriesAfter(request.afterSequence(), request.range());
    this.lastExamined = request.afterSequence();
    this.servedUpTo = request.afterSequence();
  }

  ArcStore arc() {
    return arc;
  }

  long cut() {
    return request.cut();
  }

  long lastUsed() {
    return lastUsed;
  }

  /** Whether {@code next} goes on where the last page served here ended, in the same terms. */
  boolean continues(ScanRequest next, ArcStore nextArc) {
    return nextArc == arc && next.afterSequence() == servedUpTo && next.cut() == request.cut()
        && next.range().equals(request.range()) && Arrays.equals(next.prefix(),
            request.prefix());
  }

  /**
   * The next page (the one read ahead, when there is one), and the page after it started on
   * {@code aheadRunner} unless this one is the last.
   *
   * @throws IOException as reading the view failed, here or ahead (a compaction's swap closes
   *     the view's file: {@link java.nio.channels.ClosedChannelException})
   */
  /**
   * A SCAN_PAGE's payload (a buffer its receiver releases, or hands to a connection that
   * does), where it ended, and whether it is the last.
   */
  record Page(ByteBuf body, long lastExamined, boolean done) {}

  Page serve(int pageBytes, Executor aheadRunner) throws IOException {
    turn.lock();
    try {
      CompletableFuture<Page> pending = ahead;
      ahead = null;
      Page page = pending != null ? readAhead(pending) : next(pageBytes);
      servedUpTo = page.lastExamined();
      lastUsed = System.nanoTime();
      if (page.done()) {
        writer.close(); // the last page: the scan is not kept (its receiver frees the page)
      } else if (pageBytes <= MAX_READ_AHEAD_PAGE_BYTES) {
        try {
          ahead = CompletableFuture.supplyAsync(() -> {
            try {
              return next(pageBytes);
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
          }, aheadRunner);
        } catch (RejectedExecutionException e) {
          ahead = null; // the back-end is closing: the next serve reads for itself
        }
      }
      return page;
    } finally {
      turn.unlock();
    }
  }

  /**
   * The scan is dropped (idle, evicted, replaced by one from another point, the back-end
   * closing): its page buffers are freed, a page read ahead once it is done.
   */
  void discard() {
    turn.lock();
    try {
      if (ahead != null) {
        ahead.whenComplete((page, failed) -> {
          if (page != null) {
            page.body().release();
          }
          writer.close();
        });
        ahead = null;
      } else {
        writer.close();
      }
    } finally {
      turn.unlock();
    }
  }

  private static Page readAhead(CompletableFuture<Page> pending) throws IOException {
    try {
      return pending.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof UncheckedIOException io) {
        throw io.getCause();
      }
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw e;
    }
  }

  /** The sequence number the scan sees up to: its cut, or its view's end. */
  private long seesUpTo() {
    return request.cut() > 0 ? request.cut() : view.lastSequence();
  }

  /** Entries for about {@code pageBytes}; the one that would overflow waits for the next. */
  private Page next(int pageBytes) throws IOException {
    ScanPageWriter page = writer;
    page.reset(pageBytes);
    try {
      return fill(page, pageBytes);
    } catch (IOException | RuntimeException e) {
      page.release();
      throw e;
    }
  }

  private Page fill(ScanPageWriter page, int pageBytes) throws IOException {
    long examined = lastExamined;
    boolean done = false;
    while (true) {
      if (carried != null) { // the entry that did not fit the last page
        StoreView.Entry e = carried;
        carried = null;
        page.add(e.key(), e.value());
        examined = e.sequence();
        continue;
      }
      if (!entries.advance()) {
        examined = entries.lastExamined();
        done = true;
        break;
      }
      // Read in place: nothing is copied out of the log's buffer but into the page.
      java.nio.ByteBuffer bytes = entries.buffer();
      int keyIndex = entries.keyIndex();
      int keyLength = entries.keyLength();
      if (!request.wantsEngineKey(bytes, keyIndex, keyLength)) {
        examined = entries.sequence();
        continue;
      }
      long size = keyLength - Long.BYTES + (long) entries.valueLength();
      if (page.count() > 0 && page.entryBytes() + size > pageBytes) {
        carried = entries.current();
        break;
      }
      page.add(bytes, keyIndex, keyLength, entries.valueIndex(), entries.valueLength());
      examined = entries.sequence();
    }
    lastExamined = examined;
    return new Page(page.finishBody(examined, done, seesUpTo(),
        done ? view.endOffset() : entries.offsetReached(), view.endOffset()), examined, done);
  }
}

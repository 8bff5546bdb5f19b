package org.fawnpack.kv.scan;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.UnpooledByteBufAllocator;

/**
 * Writes a SCAN_PAGE payload ({@link ScanPage}'s layout) entry by entry as a back-end reads
 * them, straight from the engine's keys and values where they lie: no list of entries and no
 * copies of them. The page is written into one buffer off the heap, which {@link #finishBody}
 * hands over as it is: the connection writes it after the frame's header, so the page's bytes
 * are copied once on their way from the log's buffer to the socket, with no page-sized array
 * on the heap (an array of a megabyte is a humongous object to G1, and zeroed when made).
 *
 * <p>The writer keeps its last {@value #SPARES} pages and writes a later page into one whose
 * receiver has let go of it (its connection wrote and released it): a scan's pages cycle
 * through two buffers, where a new megabyte buffer per page costs its zeroing (and a pooled
 * allocator frees the chunk of a page that large as soon as the page is released). {@link
 * #close} gives them up.
 */
public final class ScanPageWriter implements AutoCloseable {
  private static final int LEAD_BYTES = 6 * Long.BYTES;
  private static final int ENGINE_KEY_PREFIX = Long.BYTES; // the ring position
  /** One page travelling while the next is written (a scan reads one page ahead). */
  private static final int SPARES = 2;

  private final ByteBufAllocator alloc;
  /** The page being written (owned here until {@link #finishBody}), or null. */
  private ByteBuf page;
  private int count;
  private long entryBytes;
  /** Pages handed out, each with a reference of this writer's own (see the class comment). */
  private final ByteBuf[] spares = new ByteBuf[SPARES];
  /** The buffer entries were last added from, and a view of it to copy ranges through. */
  private java.nio.ByteBuffer source;
  private java.nio.ByteBuffer sourceView;

  /** A writer whose pages are heap buffers (tests, tools). */
  public ScanPageWriter() {
    this(UnpooledByteBufAllocator.DEFAULT);
  }

  /** A writer whose pages come from {@code alloc} (a back-end's pooled direct buffers). */
  public ScanPageWriter(ByteBufAllocator alloc) {
    this.alloc = alloc;
  }

  /**
   * Starts a new page of about {@code expectedBytes} of entries (it grows past them for an
   * entry larger than a page); a page started and not finished is released.
   */
  public void reset(int expectedBytes) {
    release();
    int capacity = LEAD_BYTES + Math.max(0, expectedBytes) + 64;
    page = spareFor(capacity);
    if (page == null) {
      page = alloc.directBuffer(capacity);
    }
    page.clear().writerIndex(LEAD_BYTES); // the numbers go there once the page is done
    count = 0;
    entryBytes = 0;
  }

  /**
   * A kept page its receiver has released (only this writer's reference left), large enough;
   * one released but too small (the reader asked for larger pages) is given up.
   */
  private ByteBuf spareFor(int capacity) {
    for (int i = 0; i < SPARES; i++) {
      ByteBuf spare = spares[i];
      if (spare != null && spare.refCnt() == 1) {
        spares[i] = null;
        if (spare.capacity() >= capacity) {
          return spare;
        }
        spare.release();
      }
    }
    return null;
  }

  /** Keeps a reference to {@code finished}, in place of the oldest kept one if need be. */
  private void keep(ByteBuf finished) {
    int slot = 0;
    for (int i = 0; i < SPARES; i++) {
      if (spares[i] == null) {
        slot = i;
        break;
      }
    }
    if (spares[slot] != null) {
      spares[slot].release(); // still travelling: its receiver frees it
    }
    System.arraycopy(spares, slot + 1, spares, slot, SPARES - 1 - slot);
    spares[SPARES - 1] = finished.retain();
  }

  /** Releases the page being written and the writer's references to the pages kept. */
  @Override
  public void close() {
    release();
    for (int i = 0; i < SPARES; i++) {
      if (spares[i] != null) {
        spares[i].release();
        spares[i] = null;
      }
    }
  }

  /** Releases a page started and not finished (a failed read, a closing scan). */
  public void release() {
    if (page != null) {
      page.release();
      page = null;
    }
  }

  /** Entries written so far. */
  public int count() {
    return count;
  }

  /** User keys' and values' bytes written so far (what a page's size counts). */
  public long entryBytes() {
    return entryBytes;
  }

  /** Adds the entry of an engine key (ring position, then the user key) and its value. */
  public void add(byte[] engineKey, byte[] value) {
    if (page == null) {
      throw new IllegalStateException("a scan page is added to before it was started");
    }
    int keyLength = engineKey.length - ENGINE_KEY_PREFIX;
    page.writeInt(keyLength);
    page.writeBytes(engineKey, ENGINE_KEY_PREFIX, keyLength);
    page.writeInt(value.length);
    page.writeBytes(value);
    count++;
    entryBytes += keyLength + value.length;
  }

  /**
   * As {@link #add(byte[], byte[])}, from absolute indices of {@code source} (a log read in
   * place off the heap), whose position and limit are left as they are.
   */
  public void add(java.nio.ByteBuffer source, int engineKeyIndex, int engineKeyLength,
      int valueIndex, int valueLength) {
    if (page == null) {
      throw new IllegalStateException("a scan page is added to before it was started");
    }
    if (source != this.source) {
      this.source = source;
      this.sourceView = source.duplicate(); // moved freely below: the source's reader is not
    }
    int keyLength = engineKeyLength - ENGINE_KEY_PREFIX;
    int keyIndex = engineKeyIndex + ENGINE_KEY_PREFIX;
    page.writeInt(keyLength);
    page.writeBytes(sourceView.clear().position(keyIndex).limit(keyIndex + keyLength));
    page.writeInt(valueLength);
    page.writeBytes(sourceView.clear().position(valueIndex).limit(valueIndex + valueLength));
    count++;
    entryBytes += keyLength + valueLength;
  }

  /**
   * The payload, with the page's numbers as {@link ScanPage} names them; the caller owns it
   * (and releases it, or hands it to a connection that does).
   */
  public ByteBuf finishBody(long lastExamined, boolean done, long viewSequence,
      long offsetReached, long viewBytes) {
    if (page == null) {
      throw new IllegalStateException("a scan page is finished before it was started");
    }
    ByteBuf finished = page;
    page = null;
    keep(finished);
    int at = 0;
    for (long number : new long[] {lastExamined, done ? 1 : 0, viewSequence, offsetReached,
        viewBytes, count}) {
      finished.setLong(at, number);
      at += Long.BYTES;
    }
    return finished;
  }

  /** As {@link #finishBody}, copied into an array (tests and tools). */
  public byte[] finish(long lastExamined, boolean done, long viewSequence, long offsetReached,
      long viewBytes) {
    ByteBuf body = finishBody(lastExamined, done, viewSequence, offsetReached, viewBytes);
    try {
      return ByteBufUtil.getBytes(body);
    } finally {
      body.release();
    }
  }
}

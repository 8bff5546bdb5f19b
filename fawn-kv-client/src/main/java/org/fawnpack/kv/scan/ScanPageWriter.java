package org.fawnpack.kv.scan;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.UnpooledByteBufAllocator;

/**
 * Writes a SCAN_PAGE payload ({@link ScanPage}'s layout) entry by entry as a back-end reads
 * them, straight from the engine's keys and values where they lie: no list of entries and no
 * copies of them. The page is written into one buffer from the back-end's allocator (pooled,
 * off the heap), which {@link #finishBody} hands over as it is: the connection writes it after
 * the frame's header, so the page's bytes are copied once on their way from the log's buffer
 * to the socket, with no page-sized array on the heap (an array of a megabyte is a humongous
 * object to G1, and zeroed when made).
 */
public final class ScanPageWriter {
  private static final int LEAD_BYTES = 6 * Long.BYTES;
  private static final int ENGINE_KEY_PREFIX = Long.BYTES; // the ring position

  private final ByteBufAllocator alloc;
  /** The page being written (owned here until {@link #finishBody}), or null. */
  private ByteBuf page;
  private int count;
  private long entryBytes;

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
    page = alloc.directBuffer(LEAD_BYTES + Math.max(0, expectedBytes) + 64);
    page.writerIndex(LEAD_BYTES); // the numbers go there once the page is done
    count = 0;
    entryBytes = 0;
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
    add(engineKey, 0, engineKey.length, value, 0, value.length);
  }

  /**
   * As {@link #add(byte[], byte[])}, from where the engine key and value lie (a record read in
   * place from the log: no copy of either on the way).
   */
  public void add(byte[] keys, int engineKeyOffset, int engineKeyLength, byte[] values,
      int valueOffset, int valueLength) {
    if (page == null) {
      throw new IllegalStateException("a scan page is added to before it was started");
    }
    int keyLength = engineKeyLength - ENGINE_KEY_PREFIX;
    page.writeInt(keyLength);
    page.writeBytes(keys, engineKeyOffset + ENGINE_KEY_PREFIX, keyLength);
    page.writeInt(valueLength);
    page.writeBytes(values, valueOffset, valueLength);
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

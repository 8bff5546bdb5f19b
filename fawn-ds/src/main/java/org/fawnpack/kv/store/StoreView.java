package org.fawnpack.kv.store;

import java.io.IOException;

/**
 * A datastore's live entries as they were at one instant, read sequentially while the
 * datastore goes on taking writes: the log up to its flushed end then, and a copy of the index
 * then, by which a record is live exactly when it was the key's current version at that
 * instant. A key written or deleted after the view was taken is seen with its value from before
 * (the index copy still points at the old record, which the append-only log keeps).
 *
 * <p>Reading is in log order, which is sequence order, so a reader that stopped after sequence
 * number {@code s} can go on from there in a later view, here or on another replica that
 * stores the same records under the same numbers ({@link #entriesAfter}). The copy costs the
 * index's size (6 bytes a bucket) for as long as the view is held; nothing on disk. A view
 * whose datastore is closed (a split or retired file) fails its next read.
 */
public final class StoreView {
  private final DataLog log;
  private final HashIndex index;
  private final long endOffset;
  private final long lastSequence;
  private final long historyFrom;
  /** The range the file held when the view was taken, if a split narrowed it; else null. */
  private final KeyRange holds;

  private StoreView(DataLog log, HashIndex index, long endOffset, long lastSequence,
      KeyRange holds) {
    this.log = log;
    this.index = index;
    this.endOffset = endOffset;
    this.lastSequence = lastSequence;
    this.historyFrom = historyFrom(log);
    this.holds = holds;
  }

  /**
   * The lowest cut {@code log} answers: its header's sequence floor less one. A compaction
   * below a floor, a split and a merge copy history only from there on and raise the floor so.
   */
  static long historyFrom(DataLog log) {
    return Math.max(0, log.sequenceFloor() - 1);
  }

  /**
   * The lowest cut the view can be read as of ({@link #entriesAt}): below it, versions that a
   * read at the cut would need were dropped (0 when no history was).
   */
  public long historyFrom() {
    return historyFrom;
  }

  /**
   * Takes the view under the writer lock: log, flushed end, index and last sequence number of
   * one instant. A compaction may swap the log later; this view then fails its next read.
   */
  static StoreView take(CurrentLog current, Writes writes) throws IOException {
    writes.lock().lock();
    try {
      IndexedLog g = current.open();
      g.log().flush();
      HashIndex copy = g.index().copy();
      return new StoreView(g.log(), copy, g.log().flushedBytes(), writes.nextSequence() - 1,
          current.holds());
    } finally {
      writes.lock().unlock();
    }
  }

  /** The sequence number of the last write the view holds (0 when none). */
  public long lastSequence() {
    return lastSequence;
  }

  /** The log bytes the view covers, file header included (for a reader's progress). */
  public long endOffset() {
    return endOffset;
  }

  /**
   * The view's live entries whose key lies in {@code range} ({@link RingPositions}) and whose
   * sequence number is above {@code afterSequence}, in sequence order.
   */
  public Entries entriesAfter(long afterSequence, KeyRange range) {
    checkHeld(range);
    return allEntriesAfter(afterSequence, range);
  }

  /** As {@link #entriesAfter}, for any range (a whole-file pass: absorb, live-byte census). */
  Entries allEntriesAfter(long afterSequence, KeyRange range) {
    return new Entries(scanner(), afterSequence, range, lastSequence, WrittenAfterCut.NONE);
  }

  /**
   * A split that kept this file moved other ranges' keys out: a read of those would miss them
   * without a word, so it is refused (the reader asks the file that holds them now).
   */
  private void checkHeld(KeyRange range) {
    if (holds != null && !holds.covers(range)) {
      throw new IllegalStateException(log.path() + " holds only " + holds + " since a split"
          + " moved the rest to other files: cannot read " + range);
    }
  }

  /**
   * The entries as they were when the write numbered {@code cut} had just been made (a
   * point-in-time read: every key's last put at or below the cut, unless a delete at or below
   * it followed), whose key lies in {@code range}, above {@code afterSequence}, in sequence
   * order. Any replica holding every record up to the cut gives the same entries, whatever it
   * took after: so a reader moves between replicas after a sequence number and loses or
   * repeats nothing even while writes go on.
   *
   * <p>When the view holds writes past the cut, the keys they wrote are found first (one pass
   * over the log, keys only) and then each one's last record up to the cut (a second), since
   * the index points only at their newest versions; without such writes this is
   * {@link #entriesAfter}.
   *
   * @throws IllegalArgumentException when the view ends before the cut (it lacks writes) or
   *     its history starts after it ({@link #historyFrom})
   */
  public Entries entriesAt(long cut, long afterSequence, KeyRange range) throws IOException {
    checkHeld(range);
    if (cut > lastSequence) {
      throw new IllegalArgumentException("a view up to sequence " + lastSequence
          + " cannot be read as of sequence " + cut + ": it lacks writes");
    }
    if (cut < historyFrom) {
      throw new IllegalArgumentException(log.path() + ": a view whose history starts at"
          + " sequence " + historyFrom + " (compacted below it) cannot be read as of sequence "
          + cut);
    }
    if (cut == lastSequence) {
      return entriesAfter(afterSequence, range);
    }
    return new Entries(scanner(), afterSequence, range, cut,
        WrittenAfterCut.find(this::scanner, cut, range));
  }

  /**
   * The bytes the view's live records take in its log (what a compaction would keep of them),
   * in one pass paced by {@code throttle}, which is told every byte the pass reads.
   */
  public long liveRecordBytes(CompactionThrottle throttle) throws IOException {
    Entries entries = allEntriesAfter(0, KeyRange.wholeRing());
    long live = 0;
    long reached = DataLog.HEADER_BYTES;
    for (Entry e = entries.next(); e != null; e = entries.next()) {
      live += RecordFormat.alignedLength(e.key().length, e.value().length);
      throttle.passed(entries.offsetReached() - reached);
      reached = entries.offsetReached();
    }
    return live;
  }

  private LogScanner scanner() {
    return LogScanner.forView(log, DataLog.HEADER_BYTES, endOffset);
  }

  /** A live entry: its key and value and the sequence number of the write that stored it. */
  public record Entry(long sequence, byte[] key, byte[] value) {}

  /** A sequential reader of a view's entries; not thread-safe. */
  public final class Entries {
    private final LogScanner scanner;
    private final long afterSequence;
    private final KeyRange range;
    private final long cut;
    private final WrittenAfterCut writtenAfter;
    private long lastExamined;
    private long offsetReached = DataLog.HEADER_BYTES;

    private Entries(LogScanner scanner, long afterSequence, KeyRange range, long cut,
        WrittenAfterCut writtenAfter) {
      this.scanner = scanner;
      this.afterSequence = afterSequence;
      this.range = range;
      this.cut = cut;
      this.writtenAfter = writtenAfter;
      this.lastExamined = afterSequence;
    }

    /** The next entry, or null when the view has no more. */
    public Entry next() throws IOException {
      return advance() ? current() : null;
    }

    /**
     * Moves to the next entry without copying it: its bytes are read in place ({@link
     * #buffer()}, {@link #keyIndex()}, ...) until the next move. False when the view has no
     * more. A scan's page is written from there, with no key, value or entry object per entry.
     */
    public boolean advance() throws IOException {
      while (scanner.next()) {
        offsetReached = scanner.offset() + scanner.recordLength();
        long sequence = scanner.sequence();
        if (sequence <= afterSequence) {
          continue;
        }
        if (sequence > cut) {
          break; // log order is sequence order: nothing at or below the cut follows
        }
        lastExamined = sequence;
        if (scanner.kind() != RecordFormat.KIND_PUT) {
          continue;
        }
        if (range.contains(RingPositions.of(scanner.buffer(), keyStart(), keyLength()))
            && isAtCut()) {
          return true;
        }
      }
      offsetReached = endOffset;
      return false;
    }

    /** The entry {@link #advance} moved to, copied out. */
    public Entry current() {
      return new Entry(scanner.sequence(), scanner.key(), scanner.value());
    }

    /**
     * The buffer the current entry's bytes lie in, off the heap, read by absolute index (its
     * position and limit are the reader's: leave them, or read through a duplicate); valid
     * until the next move, which may read into another buffer.
     */
    public java.nio.ByteBuffer buffer() {
      return scanner.buffer();
    }

    /** Where the current entry's engine key starts in {@link #buffer()}. */
    public int keyIndex() {
      return keyStart();
    }

    public int keyLength() {
      return RecordFormat.keyLength(scanner.buffer(), scanner.recordStart());
    }

    /** Where the current entry's value starts in {@link #buffer()}. */
    public int valueIndex() {
      return keyStart() + keyLength();
    }

    public int valueLength() {
      return RecordFormat.valueLength(scanner.buffer(), scanner.recordStart());
    }

    /** The current entry's sequence number. */
    public long sequence() {
      return scanner.sequence();
    }

    private int keyStart() {
      return scanner.recordStart() + RecordFormat.HEADER_BYTES;
    }

    /** Whether the current record is its key's version as of the cut. */
    private boolean isAtCut() {
      if (writtenAfter == WrittenAfterCut.NONE) { // the usual case: no lookup per record
        return index.pointsAt(scanner.keyHash(), scanner.offset());
      }
      long last = writtenAfter.lastAtCut(scanner.key());
      return last == WrittenAfterCut.NOT_WRITTEN_AFTER
          ? index.pointsAt(scanner.keyHash(), scanner.offset()) : last == scanner.offset();
    }

    /**
     * The sequence number of the last record read, live or not (or the starting point): a
     * reader that goes on after it in another view skips no entry and repeats none.
     */
    public long lastExamined() {
      return lastExamined;
    }

    /** How far into the view's {@link #endOffset} the reading has come. */
    public long offsetReached() {
      return offsetReached;
    }
  }
}

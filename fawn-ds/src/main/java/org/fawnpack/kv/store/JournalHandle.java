package org.fawnpack.kv.store;

import java.io.IOException;

/**
 * A datastore's place in a {@link Journal}: the id it is named by in the current segment, and
 * how far its own file is forced. The mutable fields are guarded by the journal's lock.
 */
final class JournalHandle {
  final SyncDriver driver;
  final Runnable forceFile;
  private final Journal journal;
  /** The log and its length when the datastore opened (held whole: closed or replayed). */
  private final long openLogId;
  private final long openBytes;
  JournalSegment<JournalHandle> namedIn;
  long namedLogId;
  int id;
  long forcedThrough;
  /** The file forced itself since its last NAME: the next write names it again. */
  boolean forcedSinceName;

  JournalHandle(Journal journal, SyncDriver driver, Runnable forceFile, DataLog opened) {
    this.journal = journal;
    this.driver = driver;
    this.forceFile = forceFile;
    this.forcedThrough = driver.durableSequence();
    this.openLogId = opened.logId();
    this.openBytes = opened.flushedBytes();
  }

  /** Bytes of {@code log} known to be on the device: what a NAME record says. */
  long forcedBytes(DataLog log) {
    return Math.max(log.forcedBytes(), log.logId() == openLogId ? openBytes
        : DataLog.HEADER_BYTES);
  }

  /** Copies a write into the journal; the caller holds the datastore's writer lock. */
  void append(DataLog log, byte kind, byte[] key, byte[] value, long sequence)
      throws IOException {
    journal.append(this, log, kind, key, value, sequence);
  }

  /** Makes sure a force pass runs after this call. */
  void requestForce() {
    journal.requestForce(this);
  }

  /** The datastore forced its own file through {@code sequence}. */
  void forcedThrough(long sequence) {
    journal.forcedThrough(this, sequence);
  }

  /** The datastore closed after forcing its file. */
  void detach() {
    journal.detach(this);
  }
}

package org.fawnpack.kv.store;

import java.io.IOException;

/**
 * Reads of a datastore's whole log, in log order: its live entries (a scan), or every record
 * from a sequence number on (what a chain member resends from its own file to a successor that
 * lacks it). Log order is sequence order: writes append in sequence, and a compaction keeps
 * the order of what it copies.
 */
final class LogReads {
  private LogReads() {}

  /** Visits the live entries; returns how many. */
  static long liveEntries(CurrentLog current, Datastore.EntryVisitor visitor)
      throws IOException {
    LogScanner scanner = scannerOf(current);
    long visited = 0;
    while (scanner.next()) {
      if (scanner.kind() == RecordFormat.KIND_PUT
          && current.isLive(scanner.keyHash(), scanner.offset())) {
        visitor.accept(scanner.key(), scanner.value());
        visited++;
      }
    }
    return visited;
  }

  /** Visits the records from {@code fromSequence} on; returns how many. */
  static long recordsFrom(CurrentLog current, long fromSequence,
      Datastore.RecordVisitor visitor) throws IOException {
    LogScanner scanner = scannerOf(current);
    long visited = 0;
    while (scanner.next()) {
      long sequence = scanner.sequence();
      if (sequence >= fromSequence) {
        visitor.accept(sequence, scanner.key(),
            scanner.kind() == RecordFormat.KIND_PUT ? scanner.value() : null);
        visited++;
      }
    }
    return visited;
  }

  private static LogScanner scannerOf(CurrentLog current) throws IOException {
    IndexedLog g = current.open();
    g.log().flush();
    return LogScanner.skippingDamage(g.log(), DataLog.HEADER_BYTES, g.log().flushedBytes());
  }
}

package org.fawnpack.kv.store;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings a log and its index back on open: load the checkpoint when it is valid (else start
 * from an empty index, and delete the checkpoint so it can never be trusted later), replay every
 * record after it in log order, skip damaged regions in the middle (an ERROR with their offsets
 * and record count; their bytes never served), and cut a damaged tail off the file (a torn
 * write) after keeping its bytes in a side file.
 */
final class LogRecovery {

  private static final Logger LOG = LoggerFactory.getLogger(LogRecovery.class);

  /** The recovered index, the next sequence number and the report. */
  /**
   * {@code recordsThrough}: the highest sequence number the file was found to hold, by its
   * records or the index checkpoint it was opened with, not by the header's floor alone.
   */
  record Result(HashIndex index, long nextSequence, long recordsThrough,
      RecoveryReport report) {}

  private LogRecovery() {}

  static Result recover(DataLog log, DatastoreConfig config) throws IOException {
    return recover(log, config, Long.MAX_VALUE);
  }

  /**
   * As {@link #recover(DataLog, DatastoreConfig)}, for a file every record of which after byte
   * {@code journaledFrom} is in a journal ({@link JournalReplay}): damage there lies where the
   * file was not yet forced (a power cut may drop those pages in any order), so the file is cut
   * at it like a torn tail, and the journal puts the rest back. Damage before it is the
   * device's, skipped and reported as without a journal.
   */
  static Result recover(DataLog log, DatastoreConfig config, long journaledFrom)
      throws IOException {
    long logBytes = log.flushedBytes();
    Optional<IndexCheckpoint.Loaded> checkpoint = config.checkpoint()
        ? IndexCheckpoint.read(log.path(), log.logId(), logBytes) : Optional.empty();
    if (checkpoint.isEmpty()) {
      // A checkpoint passed over now (the log was cut below it, or checkpoints are off) would
      // look valid again once the log grows past what it covers: it must go before any write.
      IndexCheckpoint.deleteUnused(log.path());
    }
    HashIndex index = checkpoint.map(IndexCheckpoint.Loaded::index).orElseGet(() ->
        new HashIndex(HashIndex.bitsFor(config.expectedKeys(), config.loadFactor())));
    long from = checkpoint.map(IndexCheckpoint.Loaded::coveredBytes).orElse(
        (long) DataLog.HEADER_BYTES);
    long nextSequence = Math.max(log.sequenceFloor(),
        checkpoint.map(IndexCheckpoint.Loaded::nextSequence).orElse(1L));

    List<RecoveryReport.Damage> skipped = new ArrayList<>();
    long[] tailFrom = {-1};
    long[] middle = {-1, -1};
    LogScanner scanner = new LogScanner(log, from, logBytes,
        (damageFrom, damageTo, tail) -> {
          if (tail) {
            tailFrom[0] = damageFrom;
          } else {
            middle[0] = damageFrom;
            middle[1] = damageTo;
          }
        });
    long records = 0;
    long recordsThrough = checkpoint.map(c -> c.nextSequence() - 1).orElse(0L);
    while (true) {
      boolean more = scanner.next();
      // Damage followed by a valid record (or by a range mark, which next() passes over).
      if (middle[0] >= 0) {
        if (middle[0] >= journaledFrom) {
          LOG.warn("{}: bytes {}..{} are damaged where the file was not yet forced and the "
              + "journal holds its writes: cut there", log.path(), middle[0], middle[1]);
          tailFrom[0] = middle[0];
          break;
        }
        skipped.add(skippedDamage(log, middle[0], middle[1]));
        middle[0] = -1;
      }
      if (!more) {
        break;
      }
      index = IndexBuilder.apply(index, log, config.loadFactor(), scanner.kind(), scanner.key(),
          scanner.offset());
      nextSequence = Math.max(nextSequence, scanner.sequence() + 1);
      recordsThrough = Math.max(recordsThrough, scanner.sequence());
      records++;
    }
    // Marks past the checkpoint narrow what it and the replay put in (a checkpoint written
    // after a mark was taken from an index already narrowed); a mark the cut below takes off
    // never counted.
    long cutAt = tailFrom[0] >= 0 ? tailFrom[0] : Long.MAX_VALUE;
    List<RangeMarks.Mark> marks = scanner.marks().stream().filter(m -> m.offset() < cutAt)
        .toList();
    int ruledOut = RangeMarks.apply(index, log, marks);
    if (ruledOut > 0) {
      LOG.info("{}: {} keys ruled out by {} range marks (split off to other files)", log.path(),
          ruledOut, marks.size());
    }
    long truncated = 0;
    long truncatedRecords = 0;
    Path tailCopy = null;
    if (tailFrom[0] >= 0) {
      truncated = logBytes - tailFrom[0];
      truncatedRecords = DamagedBytes.recordsIn(log, tailFrom[0], logBytes);
      tailCopy = DamagedBytes.keepTail(log, tailFrom[0], logBytes);
      LOG.warn("{}: cutting {} bytes ({} records) of torn or corrupt tail at offset {} (of {}); "
          + "the cut bytes are kept in {}", log.path(), truncated, truncatedRecords, tailFrom[0],
          logBytes, tailCopy);
      log.truncate(tailFrom[0]);
    }
    if (records > 0 || truncated > 0 || !skipped.isEmpty()) {
      LOG.info("{}: recovered {} records from offset {} ({}), {} live keys", log.path(), records,
          from, checkpoint.isPresent() ? "after the index checkpoint" : "full scan",
          index.live());
    }
    return new Result(index, nextSequence, recordsThrough, new RecoveryReport(checkpoint.isPresent(), from,
        records, truncated, truncatedRecords, tailCopy, skipped));
  }

  private static RecoveryReport.Damage skippedDamage(DataLog log, long from, long to)
      throws IOException {
    long lost = DamagedBytes.recordsIn(log, from, to);
    LOG.error("{}: bytes {}..{} ({} bytes, {} records) in the middle of the log are damaged and "
        + "skipped: those writes are lost, and their keys read as their previous versions, if "
        + "any", log.path(), from, to, to - from, lost);
    return new RecoveryReport.Damage(from, to, lost);
  }
}

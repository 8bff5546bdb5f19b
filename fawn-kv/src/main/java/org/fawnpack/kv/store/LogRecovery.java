package org.fawnpack.kv.store;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings a log and its index back on open: load the checkpoint when it is valid (else start
 * from an empty index), replay every record after it in log order, skip damaged regions in the
 * middle (logged with their offsets, their bytes never served), and cut a damaged tail off the
 * file (a torn write: logged with the offset and the bytes cut).
 */
final class LogRecovery {

  private static final Logger LOG = LoggerFactory.getLogger(LogRecovery.class);

  /** The recovered index, the next sequence number and the report. */
  record Result(HashIndex index, long nextSequence, RecoveryReport report) {}

  private LogRecovery() {}

  static Result recover(DataLog log, DatastoreConfig config) throws IOException {
    long logBytes = log.flushedBytes();
    Optional<IndexCheckpoint.Loaded> checkpoint = config.checkpoint()
        ? IndexCheckpoint.read(log.path(), log.logId(), logBytes) : Optional.empty();
    HashIndex index = checkpoint.map(IndexCheckpoint.Loaded::index).orElseGet(() ->
        new HashIndex(HashIndex.bitsFor(config.expectedKeys(), config.loadFactor())));
    long from = checkpoint.map(IndexCheckpoint.Loaded::coveredBytes).orElse(
        (long) DataLog.HEADER_BYTES);
    long nextSequence = checkpoint.map(IndexCheckpoint.Loaded::nextSequence).orElse(1L);

    List<RecoveryReport.Damage> skipped = new ArrayList<>();
    long[] tailFrom = {-1};
    LogScanner scanner = new LogScanner(log, from, logBytes,
        (damageFrom, damageTo, tail) -> {
          if (tail) {
            tailFrom[0] = damageFrom;
          } else {
            LOG.warn("{}: skipping damaged bytes {}..{} ({} bytes) in the middle of the log: "
                + "their records are lost", log.path(), damageFrom, damageTo,
                damageTo - damageFrom);
            skipped.add(new RecoveryReport.Damage(damageFrom, damageTo));
          }
        });
    long records = 0;
    while (scanner.next()) {
      index = IndexBuilder.apply(index, log, config.loadFactor(), scanner.kind(), scanner.key(),
          scanner.offset());
      nextSequence = Math.max(nextSequence, scanner.sequence() + 1);
      records++;
    }
    long truncated = 0;
    if (tailFrom[0] >= 0) {
      truncated = logBytes - tailFrom[0];
      LOG.warn("{}: cutting {} bytes of torn or corrupt tail at offset {} (of {})", log.path(),
          truncated, tailFrom[0], logBytes);
      log.truncate(tailFrom[0]);
    }
    if (records > 0 || truncated > 0 || !skipped.isEmpty()) {
      LOG.info("{}: recovered {} records from offset {} ({}), {} live keys", log.path(), records,
          from, checkpoint.isPresent() ? "after the index checkpoint" : "full scan",
          index.live());
    }
    return new Result(index, nextSequence,
        new RecoveryReport(checkpoint.isPresent(), from, records, truncated, skipped));
  }
}

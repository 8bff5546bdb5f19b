package org.fawnpack.kv.store;

import java.nio.file.Path;
import java.util.List;

/**
 * What opening a datastore found: whether the index came from a checkpoint, where the log
 * replay started, how many records it applied, the torn or corrupt tail that was cut (its bytes,
 * the records it held and the side file that keeps them), and each damaged region in the middle
 * that was skipped (its records are not served; their keys read as their previous versions).
 *
 * @param truncatedTailCopy the side file holding the cut tail bytes, or null when none was cut
 */
public record RecoveryReport(boolean fromCheckpoint, long replayedFromOffset, long recordsReplayed,
    long truncatedBytes, long truncatedRecords, Path truncatedTailCopy, List<Damage> skipped) {

  /**
   * Bytes {@code [from, to)} of the log that hold no valid record, and how many records they
   * held (those whose headers can still be read; at least 1).
   */
  public record Damage(long from, long to, long records) {}

  public RecoveryReport {
    skipped = List.copyOf(skipped);
  }

  /** The report of a new, empty datastore. */
  static RecoveryReport empty() {
    return new RecoveryReport(false, DataLog.HEADER_BYTES, 0, 0, 0, null, List.of());
  }

  /** Records lost to damage in the middle of the log. */
  public long skippedRecords() {
    return skipped.stream().mapToLong(Damage::records).sum();
  }
}

package org.fawnpack.kv.store;

import java.util.List;

/**
 * What opening a datastore found: whether the index came from a checkpoint, where the log
 * replay started, how many records it applied, how many tail bytes were cut, and each damaged
 * region in the middle that was skipped (its records are not served).
 */
public record RecoveryReport(boolean fromCheckpoint, long replayedFromOffset, long recordsReplayed,
    long truncatedBytes, List<Damage> skipped) {

  /** Bytes {@code [from, to)} of the log that hold no valid record. */
  public record Damage(long from, long to) {}

  public RecoveryReport {
    skipped = List.copyOf(skipped);
  }

  /** The report of a new, empty datastore. */
  static RecoveryReport empty() {
    return new RecoveryReport(false, DataLog.HEADER_BYTES, 0, 0, List.of());
  }
}

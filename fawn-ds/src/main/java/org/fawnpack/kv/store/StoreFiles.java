package org.fawnpack.kv.store;

import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * The names of a datastore's files, in one place. Next to {@code <file>} (the data log):
 * {@code <file>.idx} (index checkpoint) and {@code <file>.idx.tmp} (one being written),
 * {@code <file>.compacting} (a compaction's output until its swap),
 * {@code <file>.tail-<offset>[-n].corrupt} (a tail recovery cut off). A {@link DatastoreSet}
 * names its range files {@code range-<start hex>-<end hex>-g<generation>.fds}.
 */
final class StoreFiles {

  /** Matches a range file name; groups: start, end (16 hex digits each), generation. */
  static final Pattern RANGE_FILE =
      Pattern.compile("range-([0-9a-f]{16})-([0-9a-f]{16})-g([0-9]+)\\.fds");

  private StoreFiles() {}

  static Path checkpoint(Path log) {
    return sibling(log, ".idx");
  }

  static Path checkpointInProgress(Path log) {
    return sibling(log, ".idx.tmp");
  }

  static Path compacting(Path log) {
    return sibling(log, ".compacting");
  }

  /** The side file for a tail cut at {@code offset}; {@code n} > 1 when that name is taken. */
  static Path cutTail(Path log, long offset, int n) {
    return sibling(log, ".tail-" + offset + (n == 1 ? "" : "-" + n) + ".corrupt");
  }

  /** The file of key range {@code (start, end]} at {@code generation} in {@code dir}. */
  static Path rangeFile(Path dir, KeyRange range, long generation) {
    return dir.resolve(String.format("range-%016x-%016x-g%d.fds", range.startExclusive(),
        range.endInclusive(), generation));
  }

  private static Path sibling(Path log, String suffix) {
    return log.resolveSibling(log.getFileName() + suffix);
  }
}

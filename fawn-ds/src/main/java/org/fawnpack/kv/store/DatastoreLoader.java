package org.fawnpack.kv.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opening a datastore file: lock it (create it when absent), clean up what an earlier process
 * left beside it, and recover its index ({@link LogRecovery}).
 */
final class DatastoreLoader {

  private static final Logger LOG = LoggerFactory.getLogger(DatastoreLoader.class);

  /** An open, locked log and what recovery made of it. */
  record Loaded(DataLog log, LogRecovery.Result recovered) {}

  private DatastoreLoader() {}

  static Loaded load(Path path, DatastoreConfig config) throws IOException {
    return load(path, config, logId -> Long.MAX_VALUE);
  }

  /**
   * As {@link #load(Path, DatastoreConfig)}; {@code journaledFrom} gives, for the log id in the
   * file's header, the byte offset after which a journal holds all its records ({@link
   * LogRecovery#recover(DataLog, DatastoreConfig, long)}).
   */
  static Loaded load(Path path, DatastoreConfig config,
      java.util.function.LongUnaryOperator journaledFrom) throws IOException {
    boolean exists = Files.exists(path);
    // The log is opened (and so locked) first: the leftovers below may belong to a store that
    // another process has open, and are touched only once this one owns the file.
    DataLog log = exists
        ? DataLogFiles.open(path, config.writeBufferBytes(), config.writebackBytes())
        : DataLogFiles.create(path, config.writeBufferBytes(), config.writebackBytes());
    try {
      Path leftover = StoreFiles.compacting(path);
      if (Files.deleteIfExists(leftover)) {
        LOG.warn("{}: deleted an unfinished compaction output {}", path, leftover);
      }
      if (exists) {
        return new Loaded(log, LogRecovery.recover(log, config,
            journaledFrom.applyAsLong(log.logId())));
      }
      IndexCheckpoint.delete(path);
      HashIndex index = new HashIndex(HashIndex.bitsFor(config.expectedKeys(),
          config.loadFactor()));
      return new Loaded(log, new LogRecovery.Result(index, 1, 0, RecoveryReport.empty()));
    } catch (IOException | RuntimeException e) {
      log.close();
      throw e;
    }
  }
}

package org.fawnpack.input;

/** Counters added by the combined-split record readers (display names in the bundle). */
public enum FawnInputCounter {
  /** Compressed files that could not be decoded and were skipped (fawn.input.skip-corrupt). */
  CORRUPT_FILES_SKIPPED,
  /** Files whose first chunk the combined readers opened (each file counts once). */
  FILES_READ,
  /**
   * Bytes of the chunks read to their end (stored bytes, so compressed size for compressed
   * files). Hadoop's own "Bytes Read" counter stays 0 for combined splits.
   */
  BYTES_READ
}

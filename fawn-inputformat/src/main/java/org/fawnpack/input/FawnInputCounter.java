package org.fawnpack.input;

/** Counters added by the combined-split record readers (display names in the bundle). */
public enum FawnInputCounter {
  /** Compressed files that could not be decoded and were skipped (fawn.input.skip-corrupt). */
  CORRUPT_FILES_SKIPPED,
  /** Files whose first chunk the combined readers opened (each file counts once). */
  FILES_READ
}

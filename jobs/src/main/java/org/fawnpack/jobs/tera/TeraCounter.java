package org.fawnpack.jobs.tera;

/** Counters of teragen and teravalidate (display names in TeraCounter.properties). */
public enum TeraCounter {
  /** Records teragen wrote. */
  ROWS_GENERATED,
  /** Sum of the CRC32s of the records, low 64 bits (exact below 2^32 records). */
  CHECKSUM,
  /** Records teravalidate read. */
  RECORDS_VALIDATED,
  /** Records smaller than the record before them, within a file or across files. */
  MISORDERED,
  /** Files teravalidate read. */
  FILES_VALIDATED
}

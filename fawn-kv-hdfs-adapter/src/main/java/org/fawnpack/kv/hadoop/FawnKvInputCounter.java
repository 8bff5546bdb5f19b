package org.fawnpack.kv.hadoop;

/** What maps reading FAWN-KV count, summed over the job. */
public enum FawnKvInputCounter {
  /** Keys and values' bytes the maps read. */
  BYTES_READ,
  /** Pages of a scan asked for again: a tail failed, stalled, refused, or the ring moved. */
  SCAN_PAGES_ASKED_AGAIN,
  /** Pages the maps received. */
  SCAN_PAGES
}

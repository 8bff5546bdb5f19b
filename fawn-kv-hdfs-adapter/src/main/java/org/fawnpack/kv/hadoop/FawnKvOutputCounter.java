package org.fawnpack.kv.hadoop;

/** What tasks writing into FAWN-KV count, summed over the job. */
public enum FawnKvOutputCounter {
  /** Batched puts: puts the cluster acknowledged (a retried task attempt counts its puts again). */
  RECORDS_PUT,
  /** Batched puts: keys and values' bytes of those puts. */
  BYTES_PUT,
  /** Bulk load: records staged by task attempts (a failed attempt's count stays in the job's). */
  RECORDS_STAGED,
  /** Bulk load: keys and values' bytes of those records. */
  BYTES_STAGED
}

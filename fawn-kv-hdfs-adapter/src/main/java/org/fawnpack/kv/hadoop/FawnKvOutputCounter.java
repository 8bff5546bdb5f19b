package org.fawnpack.kv.hadoop;

/** What tasks writing into FAWN-KV count, summed over the job. */
public enum FawnKvOutputCounter {
  /** Puts the cluster acknowledged (a retried task attempt counts its puts again). */
  RECORDS_PUT,
  /** Keys and values' bytes of those puts. */
  BYTES_PUT
}

package org.fawnpack.kv.store;

/**
 * A datastore's figures. {@code logReads} counts record reads done for gets and contains;
 * {@code fragmentFalsePositives} the reads whose key was not the one looked up (a 15-bit
 * fragment match of another key).
 */
public record DatastoreStats(long liveKeys, long deletedBuckets, long indexBuckets,
    long indexBytes, long logBytes, long logReads, long fragmentFalsePositives,
    long lastSequence, long durableSequence) {}

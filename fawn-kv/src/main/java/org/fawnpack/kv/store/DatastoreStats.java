package org.fawnpack.kv.store;

/**
 * A datastore's counters. {@code logReads} counts record reads done for gets and contains;
 * {@code fragmentFalsePositives} the reads whose key did not match the fragment's key.
 */
public record DatastoreStats(long liveKeys, long deletedBuckets, long indexBuckets,
    long indexBytes, long logBytes, long lookups, long logReads, long fragmentFalsePositives,
    long lastSequence, long durableSequence) {}

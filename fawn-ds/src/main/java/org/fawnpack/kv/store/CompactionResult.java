package org.fawnpack.kv.store;

/** Log sizes before and after a compaction and the live records kept. */
public record CompactionResult(long bytesBefore, long bytesAfter, long liveRecords) {}

package org.fawnpack.kv.frontend;

import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.MalformedFrameException;

/**
 * A front-end's answer to STATS (for {@code fawn kv stats}): its slice and cache, and the
 * requests it took since it started.
 */
public record FrontEndStats(long sliceEpoch, long bucketsServed, long gets, long puts,
    long deletes, long cacheHits, long cacheMisses, long cacheEntries, long cacheCapacity) {

  static FrontEndStats of(FrontEndMetricsMXBean m, long bucketsServed) {
    return new FrontEndStats(m.getSliceEpoch(), bucketsServed, m.getGets(), m.getPuts(),
        m.getDeletes(), m.getCacheHits(), m.getCacheMisses(), m.getCacheEntries(),
        m.getCacheCapacity());
  }

  /** Hits over the gets of its own keys (hits and misses), 0 before any. */
  public double hitRate() {
    long lookups = cacheHits + cacheMisses;
    return lookups == 0 ? 0 : (double) cacheHits / lookups;
  }

  byte[] encode() {
    return new Frame.Payload().addLong(sliceEpoch).addLong(bucketsServed).addLong(gets)
        .addLong(puts).addLong(deletes).addLong(cacheHits).addLong(cacheMisses)
        .addLong(cacheEntries).addLong(cacheCapacity).toBytes();
  }

  public static FrontEndStats decode(Frame reply) throws MalformedFrameException {
    Frame.Fields f = reply.fields();
    FrontEndStats stats = new FrontEndStats(f.nextLong(), f.nextLong(), f.nextLong(),
        f.nextLong(), f.nextLong(), f.nextLong(), f.nextLong(), f.nextLong(), f.nextLong());
    f.end();
    return stats;
  }
}

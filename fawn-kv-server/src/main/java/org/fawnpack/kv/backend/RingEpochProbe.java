package org.fawnpack.kv.backend;

import java.io.IOException;

/**
 * Asks ZooKeeper which ring epoch is published, after a sync with its leader (so no epoch
 * published before the question was sent is missed): what renews a tail's read lease
 * ({@link TailLease}).
 */
@FunctionalInterface
public interface RingEpochProbe {
  /** The published epoch, -1 before there is a ring. */
  long publishedEpoch() throws IOException;
}

package org.fawnpack.kv.client;

import org.fawnpack.kv.wire.GetRequest;
import org.fawnpack.kv.wire.WriteRequest;

/**
 * A request's payload for one try: a write's says whether an earlier try of it may have taken
 * effect (a head that cannot tell then answers UNKNOWN_OUTCOME instead of applying it); a
 * get's is the same every time.
 */
@FunctionalInterface
interface TryPayload {

  byte[] forTry(boolean earlierTryMayHaveApplied);

  static TryPayload get(byte[] key) {
    byte[] bytes = new GetRequest(key).encode();
    return earlierTry -> bytes;
  }

  static TryPayload write(WriteRequest write) {
    return earlierTry -> write.retried(earlierTry).encode();
  }
}

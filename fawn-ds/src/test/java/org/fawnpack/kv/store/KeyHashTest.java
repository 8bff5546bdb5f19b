package org.fawnpack.kv.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A key's hash read from a buffer (a scan reading its log in place, off the heap) must be the
 * hash of the same bytes as an array, which is what the index was built with: the oracle is the
 * array form over a copy of the key.
 */
class KeyHashTest {

  @Test
  void bufferForm_equalsArrayFormOfACopy_heapAndDirect_bothByteOrders_anyOffset() {
    SplittableRandom random = new SplittableRandom(20261129L);
    for (int round = 0; round < 2_000; round++) {
      int length = random.nextInt(0, 70);
      int at = random.nextInt(0, 9);
      byte[] bytes = new byte[at + length + random.nextInt(0, 5)];
      random.nextBytes(bytes);
      long expected = KeyHash.of(Arrays.copyOfRange(bytes, at, at + length));
      for (ByteBuffer b : new ByteBuffer[] {ByteBuffer.wrap(bytes),
          ByteBuffer.allocateDirect(bytes.length).put(bytes).clear(),
          ByteBuffer.allocateDirect(bytes.length).order(ByteOrder.LITTLE_ENDIAN).put(bytes)
              .clear()}) {
        int position = b.position();
        assertEquals(expected, KeyHash.of(b, at, length),
            "length " + length + " at " + at + " in " + b);
        assertEquals(position, b.position(), "read by absolute index only");
      }
    }
  }
}

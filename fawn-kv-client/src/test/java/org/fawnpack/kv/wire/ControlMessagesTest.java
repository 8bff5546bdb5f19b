package org.fawnpack.kv.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** CHAIN_SYNC and FENCE against their layouts written out by hand (8-byte big-endian numbers). */
class ControlMessagesTest {

  private static byte[] longs(long... values) {
    ByteBuffer out = ByteBuffer.allocate(8 * values.length);
    for (long v : values) {
      out.putLong(v);
    }
    return out.array();
  }

  @Test
  void chainSync_isTheArcEndThenTheLastSequence() throws Exception {
    ChainSync sync = new ChainSync(-2, 41);
    assertArrayEquals(longs(-2, 41), sync.encode());
    assertEquals(sync, ChainSync.decode(new Frame(MessageType.CHAIN_SYNC, 1, 2, longs(-2, 41))));
    assertThrows(MalformedFrameException.class,
        () -> ChainSync.decode(new Frame(MessageType.CHAIN_SYNC, 1, 2, longs(-2))));
    assertThrows(MalformedFrameException.class,
        () -> ChainSync.decode(new Frame(MessageType.FENCE, 1, 2, longs(-2, 41))));
  }

  @Test
  void fence_isTheSliceEpoch() throws Exception {
    assertArrayEquals(longs(9), new Fence(9).encode());
    assertEquals(new Fence(9), Fence.decode(new Frame(MessageType.FENCE, 1, 2, longs(9))));
    assertThrows(MalformedFrameException.class,
        () -> Fence.decode(new Frame(MessageType.FENCE, 1, 2, longs(9, 10))));
    assertThrows(MalformedFrameException.class,
        () -> Fence.decode(new Frame(MessageType.CHAIN_SYNC, 1, 2, longs(9))));
  }
}

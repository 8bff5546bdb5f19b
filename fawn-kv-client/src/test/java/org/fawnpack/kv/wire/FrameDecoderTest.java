package org.fawnpack.kv.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The event-loop decoder against the stream layout {@link Frame#writeTo} writes: frames small
 * and large (large ones are filled in place as they arrive), cut into arbitrary reads, come
 * out whole and in order; a bad length or version is refused whether the frame is small or
 * large.
 */
class FrameDecoderTest {
  private static final int MAX = 4 << 20;

  @Test
  void framesSmallAndLargeCutIntoRandomReads_comeOutWholeInOrder() throws IOException {
    Random random = new Random(5);
    for (int round = 0; round < 20; round++) {
      List<Frame> sent = new ArrayList<>();
      for (int i = 0; i < 30; i++) {
        int size = random.nextInt(4) == 0
            ? FrameDecoder.FILL_IN_PLACE_BYTES - 2 + random.nextInt(300_000)
            : random.nextInt(400);
        byte[] payload = new byte[size];
        random.nextBytes(payload);
        sent.add(new Frame((byte) random.nextInt(256), random.nextLong(), random.nextLong(),
            payload));
      }
      byte[] bytes = FrameTest.bytesOf(sent.toArray(new Frame[0]));
      EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(MAX));
      int maxRead = 1 + random.nextInt(random.nextBoolean() ? 40 : 200_000);
      for (int at = 0; at < bytes.length; ) {
        int n = Math.min(bytes.length - at, 1 + random.nextInt(maxRead));
        channel.writeInbound(Unpooled.wrappedBuffer(Arrays.copyOfRange(bytes, at, at + n)));
        at += n;
      }
      for (Frame expected : sent) {
        Frame got = channel.readInbound();
        assertEquals(expected.type(), got.type(), "round " + round);
        assertEquals(expected.requestId(), got.requestId());
        assertEquals(expected.epoch(), got.epoch());
        assertArrayEquals(expected.payload(), got.payload());
      }
      assertNull(channel.readInbound(), "no frame beyond those sent");
      channel.finishAndReleaseAll();
    }
  }

  @Test
  void aLargeFrameOfAnotherVersion_refusedByNameBeforeItsPayloadArrives() throws IOException {
    byte[] bytes = FrameTest.bytesOf(new Frame((byte) 1, 1, 1, new byte[200_000]));
    bytes[4] = Frame.VERSION + 1;
    EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(MAX));
    DecoderException e = assertThrows(DecoderException.class, () -> channel.writeInbound(
        Unpooled.wrappedBuffer(Arrays.copyOf(bytes, 100))));
    assertTrue(e.getMessage().contains("protocol version " + (Frame.VERSION + 1)
        + ", this node speaks " + Frame.VERSION),
        e.getMessage());
  }

  @Test
  void aLengthOverTheLimit_refusedByNameFromItsFirstFourBytes() {
    EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(1 << 20));
    DecoderException e = assertThrows(DecoderException.class, () -> channel.writeInbound(
        Unpooled.wrappedBuffer(new byte[] {0, 0x20, 0, 0})));
    assertTrue(e.getMessage().contains("frame length 2097152 is outside 18..1048576"),
        e.getMessage());
  }
}

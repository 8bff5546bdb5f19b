package org.fawnpack.kv.slice;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.MalformedFrameException;
import org.fawnpack.kv.wire.MessageType;
import org.junit.jupiter.api.Test;

/** WRONG_SLICE against its layout written out by hand: the reason, then the map's bytes. */
class WrongSliceTest {
  private static final SliceMap MAP = SliceMap.first(-5, List.of(
      new SliceMap.Endpoint("f0", "127.0.0.1", 7000),
      new SliceMap.Endpoint("f1", "127.0.0.2", 7001)));

  private static byte[] layout(byte[] why, byte[] map) {
    return ByteBuffer.allocate(8 + why.length + map.length).putInt(why.length).put(why)
        .putInt(map.length).put(map).array();
  }

  @Test
  void isTheReasonThenTheMap() throws Exception {
    byte[] why = "bucket 7 is f1's".getBytes(StandardCharsets.UTF_8);
    byte[] expected = layout(why, SliceCodec.encode(MAP));
    assertArrayEquals(expected, new WrongSlice("bucket 7 is f1's", MAP).encode());
    WrongSlice read = WrongSlice.decode(new Frame(MessageType.WRONG_SLICE, 1, 2, expected));
    assertEquals("bucket 7 is f1's", read.why());
    assertArrayEquals(SliceCodec.encode(MAP), SliceCodec.encode(read.map()));
  }

  @Test
  void aMapThatCannotBeRead_orAnotherAnswer_isMalformed() {
    byte[] why = "x".getBytes(StandardCharsets.UTF_8);
    byte[] garbled = layout(why, "not a map".getBytes(StandardCharsets.UTF_8));
    assertThrows(MalformedFrameException.class,
        () -> WrongSlice.decode(new Frame(MessageType.WRONG_SLICE, 1, 2, garbled)));
    byte[] fine = layout(why, SliceCodec.encode(MAP));
    assertThrows(MalformedFrameException.class,
        () -> WrongSlice.decode(new Frame(MessageType.REFUSED, 1, 2, fine)));
  }
}

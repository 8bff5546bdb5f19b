package org.fawnpack.kv.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class FrameTest {
  private static final int MAX = 1 << 20;

  private static DataInputStream in(byte[] bytes) {
    return new DataInputStream(new ByteArrayInputStream(bytes));
  }

  /** The frames in the stream layout {@link Frame#writeTo} writes (other tests' oracle too). */
  static byte[] bytesOf(Frame... frames) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    for (Frame f : frames) {
      f.writeTo(out);
    }
    out.flush();
    return bytes.toByteArray();
  }

  @Test
  void writeTo_knownFrame_layoutAsDocumented() throws IOException {
    byte[] payload = new Frame.Payload().addBytes(new byte[] {7, 8}).addLong(-2).toBytes();
    byte[] wire = bytesOf(new Frame((byte) 3, 0x0102030405060708L, 42, payload));
    ByteBuffer expected = ByteBuffer.allocate(4 + 18 + 4 + 2 + 8);
    expected.putInt(18 + 14).put((byte) 2).put((byte) 3).putLong(0x0102030405060708L)
        .putLong(42).putInt(2).put((byte) 7).put((byte) 8).putLong(-2);
    assertArrayEquals(expected.array(), wire);
  }

  @Test
  void payload_randomFields_sameBytesAsADataOutputStream() throws IOException {
    Random random = new Random(13);
    for (int round = 0; round < 50; round++) {
      Frame.Payload payload = new Frame.Payload();
      ByteArrayOutputStream model = new ByteArrayOutputStream();
      DataOutputStream out = new DataOutputStream(model);
      for (int i = random.nextInt(40); i > 0; i--) {
        if (random.nextBoolean()) {
          long value = random.nextLong();
          payload.addLong(value);
          out.writeLong(value);
        } else {
          byte[] value = new byte[random.nextInt(random.nextInt(10) == 0 ? 70_000 : 100)];
          random.nextBytes(value);
          payload.addBytes(value);
          out.writeInt(value.length);
          out.write(value);
        }
      }
      out.flush();
      assertArrayEquals(model.toByteArray(), payload.toBytes(), "round " + round);
    }
  }

  @Test
  void readFrom_pipelinedRandomFrames_sameFramesInOrderThenNull() throws IOException {
    Random random = new Random(71);
    List<Frame> sent = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      byte[] payload = new byte[random.nextInt(300)];
      random.nextBytes(payload);
      sent.add(new Frame((byte) random.nextInt(256), random.nextLong(), random.nextLong(),
          payload));
    }
    DataInputStream in = in(bytesOf(sent.toArray(new Frame[0])));
    for (Frame expected : sent) {
      Frame got = Frame.readFrom(in, MAX);
      assertEquals(expected.type(), got.type());
      assertEquals(expected.requestId(), got.requestId());
      assertEquals(expected.epoch(), got.epoch());
      assertArrayEquals(expected.payload(), got.payload());
    }
    assertNull(Frame.readFrom(in, MAX), "a clean end between frames");
  }

  @Test
  void readFrom_lengthOverTheLimit_refusedBeforeReadingThePayload() {
    byte[] wire = ByteBuffer.allocate(4 + 18).putInt(Integer.MAX_VALUE).array();
    MalformedFrameException e = assertThrows(MalformedFrameException.class,
        () -> Frame.readFrom(in(wire), MAX));
    assertTrue(e.getMessage().contains("2147483647"), e.getMessage());
    byte[] negative = ByteBuffer.allocate(4 + 18).putInt(-5).array();
    assertTrue(assertThrows(MalformedFrameException.class, () -> Frame.readFrom(in(negative), MAX))
        .getMessage().contains("4294967291"));
    byte[] tooShort = ByteBuffer.allocate(4 + 18).putInt(17).array();
    assertThrows(MalformedFrameException.class, () -> Frame.readFrom(in(tooShort), MAX));
  }

  @Test
  void readFrom_otherVersion_refusedNamingIt() throws IOException {
    byte[] wire = bytesOf(new Frame((byte) 1, 1, 1, new byte[0]));
    wire[4] = 9;
    assertTrue(assertThrows(MalformedFrameException.class, () -> Frame.readFrom(in(wire), MAX))
        .getMessage().contains("version 9"));
  }

  @Test
  void readFrom_streamEndsInsideAFrame_eofException() throws IOException {
    byte[] wire = bytesOf(new Frame((byte) 1, 1, 1, new byte[10]));
    for (int cut = 1; cut < wire.length; cut++) {
      byte[] part = Arrays.copyOf(wire, cut);
      assertThrows(EOFException.class, () -> Frame.readFrom(in(part), MAX), "cut at " + cut);
    }
  }

  @Test
  void fields_payloadRunsShortOrLong_malformed() throws IOException {
    Frame ok = new Frame((byte) 1, 1, 1, new Frame.Payload().addBytes(new byte[] {1, 2, 3})
        .addLong(9).toBytes());
    Frame.Fields fields = ok.fields();
    assertArrayEquals(new byte[] {1, 2, 3}, fields.nextBytes(3, "key"));
    assertEquals(9, fields.nextLong());
    fields.end();

    assertTrue(assertThrows(MalformedFrameException.class,
        () -> ok.fields().nextBytes(2, "key")).getMessage().contains("key of 3 bytes"));
    Frame.Fields past = ok.fields();
    past.nextBytes(3, "key");
    past.nextLong();
    assertThrows(MalformedFrameException.class, past::nextLong);
    Frame.Fields trailing = ok.fields();
    trailing.nextBytes(3, "key");
    assertTrue(assertThrows(MalformedFrameException.class, trailing::end).getMessage()
        .contains("8 bytes after"));
    byte[] lying = ByteBuffer.allocate(6).putInt(100).put((byte) 1).put((byte) 2).array();
    assertTrue(assertThrows(MalformedFrameException.class,
        () -> new Frame((byte) 1, 1, 1, lying).fields().nextBytes(1000, "value")).getMessage()
        .contains("ends inside value"));
  }
}

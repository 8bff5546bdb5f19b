package org.fawnpack.kv.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The write path's messages against their layouts written out by hand (big-endian: a byte
 * string as a 4-byte length and its bytes, a number in 8 bytes), as the nodes of the earlier
 * releases wrote them field by field.
 */
class WriteMessagesTest {

  private static final byte[] KEY = "user:42".getBytes(StandardCharsets.UTF_8);
  private static final byte[] VALUE = "a value".getBytes(StandardCharsets.UTF_8);
  private static final WriteId ID = new WriteId(0x1122334455667788L, 9);

  /** Concatenates fields: byte[] as length + bytes, Long as 8 bytes. */
  private static byte[] layout(Object... fields) {
    int size = 0;
    for (Object f : fields) {
      size += f instanceof byte[] b ? 4 + b.length : 8;
    }
    ByteBuffer out = ByteBuffer.allocate(size);
    for (Object f : fields) {
      if (f instanceof byte[] b) {
        out.putInt(b.length).put(b);
      } else {
        out.putLong((Long) f);
      }
    }
    return out.array();
  }

  private static Frame frame(byte type, byte[] payload) {
    return new Frame(type, 7, 3, payload);
  }

  @Test
  void writeRequest_encodesAndDecodesTheClientLayout() throws Exception {
    WriteRequest put = WriteRequest.put(KEY, VALUE, ID).retried(true);
    byte[] expected = layout(KEY, VALUE, ID.writer(), 9L, 1L);
    assertArrayEquals(expected, put.encode());
    assertEquals(put, WriteRequest.decode(frame(MessageType.PUT, expected)));

    WriteRequest delete = WriteRequest.delete(KEY, ID);
    byte[] deleteLayout = layout(KEY, ID.writer(), 9L, 0L);
    assertArrayEquals(deleteLayout, delete.encode());
    WriteRequest decoded = WriteRequest.decode(frame(MessageType.DELETE, deleteLayout));
    assertEquals(delete, decoded);
    assertNull(decoded.value());
    assertEquals(MessageType.DELETE, decoded.type());
  }

  @Test
  void writeRequest_withTrailingBytesOrAnotherType_isMalformed() {
    byte[] longer = layout(KEY, VALUE, ID.writer(), 9L, 0L, 5L);
    MalformedFrameException trailing = assertThrows(MalformedFrameException.class,
        () -> WriteRequest.decode(frame(MessageType.PUT, longer)));
    assertTrue(trailing.getMessage().contains("8 bytes after the last field"),
        trailing.getMessage());
    assertThrows(MalformedFrameException.class,
        () -> WriteRequest.decode(frame(MessageType.GET, layout(KEY))));
  }

  @Test
  void writeRequest_problem_namesAnEmptyKeyAndAnOversizedValue() {
    assertNull(WriteRequest.put(KEY, VALUE, ID).problem());
    assertEquals("the key is empty", WriteRequest.delete(new byte[0], ID).problem());
    byte[] big = new byte[ProtocolLimits.MAX_VALUE_BYTES + 1];
    assertEquals("the value has " + big.length + " bytes, more than "
        + ProtocolLimits.MAX_VALUE_BYTES, WriteRequest.put(KEY, big, ID).problem());
  }

  @Test
  void admittedWrite_isTheClientLayoutThenTheSliceEpoch() throws Exception {
    WriteRequest put = WriteRequest.put(KEY, VALUE, ID);
    byte[] expected = layout(KEY, VALUE, ID.writer(), 9L, 0L, 123L);
    assertArrayEquals(expected, new AdmittedWrite(put, 123).encode());
    assertArrayEquals(expected, AdmittedWrite.relay(put.encode(), 123));
    AdmittedWrite decoded = AdmittedWrite.decode(frame(MessageType.PUT, expected));
    assertEquals(put, decoded.write());
    assertEquals(123, decoded.sliceEpoch());
  }

  @Test
  void admittedWrite_breakingTheKeyRules_isMalformedNamingTheRule() {
    byte[] emptyKey = layout(new byte[0], ID.writer(), 9L, 0L, 1L);
    MalformedFrameException e = assertThrows(MalformedFrameException.class,
        () -> AdmittedWrite.decode(frame(MessageType.DELETE, emptyKey)));
    assertEquals("the key is empty", e.getMessage());
    byte[] withoutEpoch = layout(KEY, ID.writer(), 9L, 0L);
    assertThrows(MalformedFrameException.class,
        () -> AdmittedWrite.decode(frame(MessageType.DELETE, withoutEpoch)));
  }

  @Test
  void chainWrite_encodesAndDecodesTheMembersLayout() throws Exception {
    long arcEnd = 0xF000_0000_0000_0001L;
    ChainWrite put = new ChainWrite(arcEnd, KEY, VALUE, 77, ID);
    byte[] expected = layout(arcEnd, KEY, VALUE, 77L, ID.writer(), 9L);
    assertArrayEquals(expected, put.encode());
    assertEquals(MessageType.CHAIN_PUT, put.type());
    assertEquals(put, ChainWrite.decode(frame(MessageType.CHAIN_PUT, expected)));

    ChainWrite delete = new ChainWrite(arcEnd, KEY, null, 78, WriteId.NONE);
    byte[] deleteLayout = layout(arcEnd, KEY, 78L, 0L, 0L);
    assertArrayEquals(deleteLayout, delete.encode());
    assertEquals(MessageType.CHAIN_DELETE, delete.type());
    assertEquals(delete, ChainWrite.decode(frame(MessageType.CHAIN_DELETE, deleteLayout)));
  }

  @Test
  void chainWrite_ofAnotherTypeOrWithAnEmptyKey_isMalformed() {
    byte[] put = layout(1L, KEY, VALUE, 77L, ID.writer(), 9L);
    assertThrows(MalformedFrameException.class,
        () -> ChainWrite.decode(frame(MessageType.PUT, put)));
    byte[] emptyKey = layout(1L, new byte[0], 78L, 0L, 0L);
    MalformedFrameException e = assertThrows(MalformedFrameException.class,
        () -> ChainWrite.decode(frame(MessageType.CHAIN_DELETE, emptyKey)));
    assertEquals("the key is empty", e.getMessage());
  }

  @Test
  void chainAttach_travelsInTheChainWritesLayout() throws Exception {
    ChainAttach attach = new ChainAttach(5, "job_1", 40, 90, WriteId.NONE);
    byte[] expected = layout(5L, "job_1".getBytes(StandardCharsets.US_ASCII),
        ByteBuffer.allocate(8).putLong(40).array(), 90L, 0L, 0L);
    assertArrayEquals(expected, attach.encode());
    assertEquals(attach, ChainAttach.decode(frame(MessageType.CHAIN_ATTACH, expected)));
    byte[] shortBase = layout(5L, "job_1".getBytes(StandardCharsets.US_ASCII), new byte[4], 90L,
        0L, 0L);
    MalformedFrameException e = assertThrows(MalformedFrameException.class,
        () -> ChainAttach.decode(frame(MessageType.CHAIN_ATTACH, shortBase)));
    assertEquals("a base of 4 bytes", e.getMessage());
    assertThrows(MalformedFrameException.class,
        () -> ChainAttach.decode(frame(MessageType.CHAIN_PUT, expected)));
  }

  @Test
  void getRequest_isTheKey_andItsAnswerTheValueOrNothing() throws Exception {
    assertArrayEquals(layout(KEY), new GetRequest(KEY).encode());
    assertEquals(new GetRequest(KEY), GetRequest.decode(frame(MessageType.DIRECT_GET,
        layout(KEY))));
    Frame request = frame(MessageType.GET, layout(KEY));
    Frame value = GetRequest.answer(request, VALUE);
    assertEquals(MessageType.VALUE, value.type());
    assertEquals(7, value.requestId());
    assertArrayEquals(layout(VALUE), value.payload());
    assertArrayEquals(VALUE, GetRequest.valueOf(value));
    Frame absent = GetRequest.answer(request, null);
    assertEquals(MessageType.NOT_FOUND, absent.type());
    assertEquals(0, absent.payload().length);
    assertNull(GetRequest.valueOf(absent));
    MalformedFrameException empty = assertThrows(MalformedFrameException.class,
        () -> GetRequest.decodeValid(frame(MessageType.GET, layout(new byte[0]))));
    assertEquals("the key is empty", empty.getMessage());
    assertEquals("the key is empty", GetRequest.decode(frame(MessageType.GET,
        layout(new byte[0]))).problem());
  }
}

package org.fawnpack.kv.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * ARC_SNAPSHOT, ARC_LAST, ARC_CHUNK and ARC_RELEASE and their answers against their layouts
 * written out by hand: 8-byte big-endian numbers, byte strings as a 4-byte length then bytes.
 */
class CopyMessagesTest {

  private static ByteBuffer layout(int bytes) {
    return ByteBuffer.allocate(bytes);
  }

  @Test
  void arcQuestion_isTheArcEndThenTheCopiersId() throws Exception {
    byte[] id = "b7".getBytes(StandardCharsets.UTF_8);
    byte[] expected = layout(8 + 4 + id.length).putLong(-5).putInt(id.length).put(id).array();
    ArcQuestion question = new ArcQuestion(-5, "b7");
    assertArrayEquals(expected, question.encode());
    assertEquals(question, ArcQuestion.decode(new Frame(MessageType.ARC_SNAPSHOT, 1, 2,
        expected)));
    assertThrows(MalformedFrameException.class,
        () -> ArcQuestion.decode(new Frame(MessageType.ARC_LAST, 1, 2, expected)));
    assertThrows(MalformedFrameException.class,
        () -> ArcQuestion.decode(new Frame(MessageType.ARC_CHUNK, 1, 2, expected)));
    byte[] tooLong = layout(8 + 4).putLong(-5).putInt(ArcQuestion.MAX_COPIER_BYTES + 1).array();
    assertThrows(MalformedFrameException.class,
        () -> ArcQuestion.decode(new Frame(MessageType.ARC_SNAPSHOT, 1, 2, tooLong)));
    assertThrows(IllegalArgumentException.class,
        () -> new ArcQuestion(1, "x".repeat(ArcQuestion.MAX_COPIER_BYTES + 1)));
  }

  @Test
  void arcLast_isTheArcEndTheCopiersIdThenTheWait() throws Exception {
    byte[] id = "b7".getBytes(StandardCharsets.UTF_8);
    byte[] expected = layout(8 + 4 + id.length + 8).putLong(-5).putInt(id.length).put(id)
        .putLong(1_000).array();
    ArcLast last = new ArcLast(-5, "b7", 1_000);
    assertArrayEquals(expected, last.encode());
    assertEquals(last, ArcLast.decode(new Frame(MessageType.ARC_LAST, 1, 2, expected)));
    assertThrows(MalformedFrameException.class,
        () -> ArcLast.decode(new Frame(MessageType.ARC_SNAPSHOT, 1, 2, expected)));
    byte[] noWait = layout(8 + 4 + id.length).putLong(-5).putInt(id.length).put(id).array();
    assertThrows(MalformedFrameException.class,
        () -> ArcLast.decode(new Frame(MessageType.ARC_LAST, 1, 2, noWait)));
    byte[] tooLongAWait = layout(8 + 4 + id.length + 8).putLong(-5).putInt(id.length).put(id)
        .putLong(ArcLast.MAX_WAIT_MS + 1).array();
    assertThrows(MalformedFrameException.class,
        () -> ArcLast.decode(new Frame(MessageType.ARC_LAST, 1, 2, tooLongAWait)));
    assertThrows(IllegalArgumentException.class, () -> new ArcLast(1, "b7", -1));
  }

  @Test
  void arcSnapshot_isFiveNumbers() throws Exception {
    byte[] expected = layout(40).putLong(3).putLong(4096).putLong(512).putLong(99).putLong(64)
        .array();
    ArcSnapshot snapshot = new ArcSnapshot(3, 4096, 512, 99, 64);
    assertArrayEquals(expected, snapshot.encode());
    assertEquals(snapshot, ArcSnapshot.decode(new Frame(MessageType.VALUE, 1, 2, expected)));
    byte[] four = layout(32).putLong(3).putLong(4096).putLong(512).putLong(99).array();
    assertThrows(MalformedFrameException.class,
        () -> ArcSnapshot.decode(new Frame(MessageType.VALUE, 1, 2, four)));
    assertThrows(MalformedFrameException.class,
        () -> ArcSnapshot.decode(new Frame(MessageType.OK, 1, 2, expected)));
  }

  @Test
  void arcChunk_isSnapshotFileOffsetLength_andItsAnswerThePiece() throws Exception {
    byte[] expected = layout(32).putLong(3).putLong(ArcChunk.CHECKPOINT).putLong(1 << 20)
        .putLong(777).array();
    ArcChunk chunk = new ArcChunk(3, ArcChunk.CHECKPOINT, 1 << 20, 777);
    assertArrayEquals(expected, chunk.encode());
    assertEquals(chunk, ArcChunk.decode(new Frame(MessageType.ARC_CHUNK, 1, 2, expected)));
    assertEquals(1, ArcChunk.CHECKPOINT);
    assertEquals(0, ArcChunk.LOG);
    assertEquals(2, ArcChunk.RECENT_WRITES);

    byte[] piece = {9, 8, 7};
    byte[] answer = layout(4 + 3).putInt(3).put(piece).array();
    assertArrayEquals(answer, ArcChunk.encodePiece(piece));
    assertArrayEquals(piece, ArcChunk.pieceOf(new Frame(MessageType.VALUE, 1, 2, answer)));
    byte[] oversized = layout(4).putInt(ProtocolLimits.MAX_ARC_CHUNK_BYTES + 1).array();
    assertThrows(MalformedFrameException.class,
        () -> ArcChunk.pieceOf(new Frame(MessageType.VALUE, 1, 2, oversized)));
    // Read in place: the length, then the piece at PIECE_OFFSET; the room a sender fills.
    assertEquals(3, ArcChunk.pieceLength(new Frame(MessageType.VALUE, 1, 2, answer)));
    assertEquals(4, ArcChunk.PIECE_OFFSET);
    assertArrayEquals(layout(4 + 5).putInt(5).array(), ArcChunk.pieceAnswer(5));
    byte[] cutShort = layout(4 + 2).putInt(3).put(new byte[] {9, 8}).array();
    assertThrows(MalformedFrameException.class,
        () -> ArcChunk.pieceLength(new Frame(MessageType.VALUE, 1, 2, cutShort)));
    assertThrows(MalformedFrameException.class,
        () -> ArcChunk.pieceLength(new Frame(MessageType.VALUE, 1, 2, new byte[] {0, 0})));
  }

  @Test
  void arcRelease_isTheSnapshotId() throws Exception {
    byte[] expected = layout(8).putLong(12).array();
    assertArrayEquals(expected, new ArcRelease(12).encode());
    assertEquals(new ArcRelease(12), ArcRelease.decode(new Frame(MessageType.ARC_RELEASE, 1, 2,
        expected)));
    assertThrows(MalformedFrameException.class, () -> ArcRelease.decode(
        new Frame(MessageType.ARC_RELEASE, 1, 2, layout(16).putLong(12).putLong(1).array())));
  }
}

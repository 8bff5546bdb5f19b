package org.fawnpack.kv.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * BULK_STAGE, BULK_GATE, BULK_APPLY and BULK_RELEASE against their layouts written out by
 * hand: the job as a 4-byte length and ASCII bytes, then 8-byte big-endian numbers.
 */
class BulkMessagesTest {
  private static final String JOB = "job_7";
  private static final byte[] JOB_BYTES = JOB.getBytes(StandardCharsets.US_ASCII);

  private static ByteBuffer startingWithTheJob(int more) {
    return ByteBuffer.allocate(4 + JOB_BYTES.length + more).putInt(JOB_BYTES.length)
        .put(JOB_BYTES);
  }

  @Test
  void stage_isJobArcEndOffsetPieceTotalCrc() throws Exception {
    byte[] piece = {1, 2, 3, 4};
    byte[] expected = startingWithTheJob(8 + 8 + 4 + 4 + 8 + 8).putLong(-9).putLong(4096)
        .putInt(4).put(piece).putLong(-1).putLong(-123456).array();
    BulkMessages.Stage stage = new BulkMessages.Stage(JOB, -9, 4096, piece, -1, -123456);
    assertArrayEquals(expected, stage.encode());
    BulkMessages.Stage read = BulkMessages.Stage.decode(new Frame(MessageType.BULK_STAGE, 0, 1,
        expected));
    assertEquals(List.of(JOB, -9L, 4096L, -1L, -123456), List.of(read.job(), read.arcEnd(),
        read.offset(), read.total(), read.crc32c()));
    assertArrayEquals(piece, read.piece());
    byte[] oversized = startingWithTheJob(8 + 8 + 4).putLong(-9).putLong(0)
        .putInt(BulkMessages.MAX_PIECE_BYTES + 1).array();
    assertThrows(MalformedFrameException.class, () -> BulkMessages.Stage.decode(
        new Frame(MessageType.BULK_STAGE, 0, 1, oversized)));
  }

  @Test
  void gate_isJobCountAndArcEnds() throws Exception {
    byte[] expected = startingWithTheJob(8 + 16).putLong(2).putLong(5).putLong(-3).array();
    BulkMessages.Gate gate = new BulkMessages.Gate(JOB, new java.util.LinkedHashSet<>(
        List.of(5L, -3L)));
    assertArrayEquals(expected, gate.encode());
    assertEquals(gate, BulkMessages.Gate.decode(new Frame(MessageType.BULK_GATE, 0, 1,
        expected)));
    assertEquals(Set.of(5L, -3L), gate.arcEnds());
    byte[] negative = startingWithTheJob(8).putLong(-1).array();
    assertThrows(MalformedFrameException.class, () -> BulkMessages.Gate.decode(
        new Frame(MessageType.BULK_GATE, 0, 1, negative)));
    byte[] short1 = startingWithTheJob(16).putLong(2).putLong(5).array();
    assertThrows(MalformedFrameException.class, () -> BulkMessages.Gate.decode(
        new Frame(MessageType.BULK_GATE, 0, 1, short1)));
  }

  @Test
  void applyAndRelease_areTheJobAndForApplyTheArcEnd() throws Exception {
    byte[] apply = startingWithTheJob(8).putLong(77).array();
    assertArrayEquals(apply, new BulkMessages.Apply(JOB, 77).encode());
    assertEquals(new BulkMessages.Apply(JOB, 77), BulkMessages.Apply.decode(
        new Frame(MessageType.BULK_APPLY, 0, 1, apply)));
    byte[] release = startingWithTheJob(0).array();
    assertArrayEquals(release, new BulkMessages.Release(JOB).encode());
    assertEquals(new BulkMessages.Release(JOB), BulkMessages.Release.decode(
        new Frame(MessageType.BULK_RELEASE, 0, 1, release)));
    assertThrows(MalformedFrameException.class, () -> BulkMessages.Release.decode(
        new Frame(MessageType.BULK_APPLY, 0, 1, release)));
    byte[] longJob = ByteBuffer.allocate(4).putInt(ChainAttach.MAX_JOB_BYTES + 1).array();
    assertThrows(MalformedFrameException.class, () -> BulkMessages.Release.decode(
        new Frame(MessageType.BULK_RELEASE, 0, 1, longJob)));
  }
}

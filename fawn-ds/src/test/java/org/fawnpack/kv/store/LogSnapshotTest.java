package org.fawnpack.kv.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whole-file transfer: a snapshot read out in chunks (as a back-end streams it) and written to
 * another directory opens without re-indexing, holds exactly what a model held at the snapshot
 * (not the writes, deletes and compaction that came after it), and goes on numbering from the
 * snapshot's last sequence.
 */
class LogSnapshotTest {
  @TempDir
  Path dir;

  @Test
  void snapshotTo_writesAndCompactionAfterwards_copyHoldsTheModelAtTheSnapshot()
      throws IOException {
    Random random = new Random(73);
    DatastoreConfig config = DatastoreConfig.builder().expectedKeys(256).build();
    Model atSnapshot = new Model();
    List<byte[]> keys = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      keys.add(Model.randomBytes(random, 1 + random.nextInt(30)));
    }
    Path copy = dir.resolve("joiner").resolve("arc.fds");
    long lastSequence;
    try (Datastore source = Datastore.open(dir.resolve("source.fds"), config)) {
      for (int op = 0; op < 2_000; op++) {
        byte[] key = keys.get(random.nextInt(keys.size()));
        if (random.nextInt(5) == 0) {
          atSnapshot.delete(key);
          source.delete(key);
        } else {
          byte[] value = Model.randomBytes(random, random.nextInt(300));
          atSnapshot.put(key, value);
          source.put(key, value);
        }
      }
      try (LogSnapshot snapshot = source.snapshotTo(dir.resolve("transfer.fds"))) {
        assertThrows(java.nio.file.FileAlreadyExistsException.class,
            () -> source.snapshotTo(dir.resolve("transfer.fds")));
        lastSequence = snapshot.lastSequence();
        assertEquals(source.lastSequence(), lastSequence);
        // Writes and a compaction after the snapshot must not reach the copy.
        for (int op = 0; op < 500; op++) {
          source.put(keys.get(random.nextInt(keys.size())), Model.randomBytes(random, 50));
        }
        // A split in place after the snapshot rewrites the header of the file the snapshot
        // links to (format version 3): pieces must still carry the snapshot's header.
        RangeMoves.splitOff(source, List.of(new KeyRange(0, Long.MIN_VALUE)),
            List.of(dir.resolve("lower.fds")), new KeyRange(Long.MIN_VALUE, 0)).get(0).close();
        assertLogPiecesMatchReads(snapshot);
        source.delete(keys.get(0));
        source.compact();
        Files.createDirectories(copy.getParent());
        // Read into a message's buffer: the same bytes as a read of their own (whose header
        // bytes come from memory, as the test's copy below shows), nothing else touched, and
        // no more than the file holds.
        long near = snapshot.logBytes() - 100;
        byte[] into = new byte[300];
        java.util.Arrays.fill(into, (byte) 7);
        int n = snapshot.logBytesFrom(near, 250);
        assertEquals(100, n);
        snapshot.readLogInto(near, into, 50, n);
        assertArrayEquals(snapshot.readLog(near, 250), java.util.Arrays.copyOfRange(into, 50,
            150));
        assertEquals(7, into[49]);
        assertEquals(7, into[150]);
        byte[] head = new byte[40];
        snapshot.readLogInto(0, head, 4, 36);
        assertArrayEquals(snapshot.readLog(0, 36), java.util.Arrays.copyOfRange(head, 4, 40));
        assertThrows(IllegalArgumentException.class,
            () -> snapshot.readLogInto(near, into, 0, 101));
        byte[] index = new byte[8];
        snapshot.readCheckpointInto(0, index, 0, 8);
        assertArrayEquals(snapshot.readCheckpoint(0, 8), index);
        writeInChunks(copy, snapshot.logBytes(), snapshot::readLog);
        writeInChunks(LogSnapshot.checkpointOf(copy), snapshot.checkpointBytes(),
            snapshot::readCheckpoint);
        snapshot.delete();
      }
      assertFalse(Files.exists(dir.resolve("transfer.fds")), "the snapshot's files are gone");
    }
    try (Datastore joined = Datastore.open(copy, config)) {
      assertTrue(joined.recoveryReport().fromCheckpoint(), "opened from the transferred index");
      assertEquals(0, joined.recoveryReport().recordsReplayed(), "nothing re-indexed");
      atSnapshot.assertHeldBy(joined, List.of());
      assertEquals(lastSequence, joined.lastSequence());
      assertTrue(joined.putAt(keys.get(1), new byte[] {1}, lastSequence + 1),
          "the next write in the chain's numbering is taken");
    }
  }

  /**
   * {@link LogSnapshot#logPiece}, as a sender that hands file bytes to its socket sees it:
   * the bytes from memory and then from the file, together, are what {@link LogSnapshot#readLog}
   * gives, and the header comes from memory even though the file's own has changed.
   */
  private static void assertLogPiecesMatchReads(LogSnapshot snapshot) throws IOException {
    long end = snapshot.logBytes();
    long[][] asks = {{0, 36}, {0, 32}, {10, 5}, {20, 100}, {32, 64}, {end - 100, 250}, {end, 8}};
    for (long[] ask : asks) {
      LogSnapshot.LogPiece piece = snapshot.logPiece(ask[0], (int) ask[1]);
      byte[] sent = java.util.Arrays.copyOf(piece.fromMemory(),
          piece.fromMemory().length + piece.count());
      try (java.nio.channels.FileChannel file = java.nio.channels.FileChannel.open(
          piece.file())) {
        file.read(java.nio.ByteBuffer.wrap(sent, piece.fromMemory().length, piece.count()),
            piece.position());
      }
      assertArrayEquals(snapshot.readLog(ask[0], (int) ask[1]), sent,
          "piece at " + ask[0] + " of " + ask[1]);
    }
    byte[] fileHeader = new byte[12];
    try (java.nio.channels.FileChannel file = java.nio.channels.FileChannel.open(
        snapshot.logPiece(0, 12).file())) {
      file.read(java.nio.ByteBuffer.wrap(fileHeader), 0);
    }
    assertEquals(3, java.nio.ByteBuffer.wrap(fileHeader).getInt(8), "the file's header moved on");
    assertEquals(2, java.nio.ByteBuffer.wrap(snapshot.logPiece(0, 12).fromMemory()).getInt(8),
        "the piece's is the snapshot's");
  }

  private interface Chunks {
    byte[] read(long offset, int length) throws IOException;
  }

  private static void writeInChunks(Path target, long bytes, Chunks source) throws IOException {
    try (OutputStream out = Files.newOutputStream(target)) {
      for (long at = 0; at < bytes; ) {
        byte[] chunk = source.read(at, 1_000);
        assertTrue(chunk.length > 0, "no progress at " + at + " of " + bytes);
        out.write(chunk);
        at += chunk.length;
      }
    }
  }
}

package org.fawnpack.kv.store;

import static org.fawnpack.kv.store.StoreChild.ascii;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Records are bound to their place (format version 2): bytes shaped like a record inside a value
 * are never taken for one when recovery resynchronises after damage; version 1 files still open,
 * take appends and compact into version 2; sequence numbers are never handed out twice. Files
 * are written and read here by the documented format, byte by byte.
 */
class RecordPlacementTest {

  private static final DatastoreConfig FULL_SCAN =
      DatastoreConfig.builder().checkpoint(false).sync(SyncPolicy.NONE).build();

  @TempDir
  Path dir;

  /** A record as format version 1 writes it: CRC32C of bytes 4.. with no position tag. */
  private static byte[] recordV1(byte kind, byte[] key, byte[] value, long sequence) {
    ByteBuffer body = ByteBuffer.allocate(16 + key.length + value.length);
    body.putInt((kind << 24) | (key.length - 1)).putInt(value.length).putLong(sequence)
        .put(key).put(value);
    CRC32C crc = new CRC32C();
    crc.update(body.array());
    ByteBuffer record = ByteBuffer.allocate((4 + body.capacity() + 7) / 8 * 8);
    record.putInt((int) crc.getValue()).put(body.array());
    return record.array();
  }

  /** A version 1 file header: magic, version 1, CRC32C of bytes 0-11 and 16-31, log id. */
  private static byte[] headerV1(long logId) {
    ByteBuffer h = ByteBuffer.allocate(32);
    h.put(ascii("FAWN-DS1")).putInt(1).putInt(0).putLong(logId).putLong(0);
    CRC32C crc = new CRC32C();
    crc.update(h.array(), 0, 12);
    crc.update(h.array(), 16, 16);
    h.putInt(12, (int) crc.getValue());
    return h.array();
  }

  /**
   * The case: a value holding a record-shaped byte run (here: a real record of another
   * store, and a version 1 record), and one flipped bit in the record that holds it. Recovery
   * must skip that whole record as damage and never serve the embedded key.
   */
  @Test
  void open_damagedRecordWhoseValueHoldsRecords_embeddedRecordsNeverServed() throws Exception {
    Path other = dir.resolve("other.fds");
    try (Datastore ds = Datastore.open(other, FULL_SCAN)) {
      ds.put(ascii("copied"), ascii("from another store"));
    }
    byte[] otherRecord = Arrays.copyOfRange(Files.readAllBytes(other), 32,
        (int) Files.size(other));
    byte[] handMade = recordV1(RecordFormat.KIND_PUT, ascii("victim"), ascii("never put"), 99);
    byte[] value = ByteBuffer.allocate(otherRecord.length + handMade.length).put(otherRecord)
        .put(handMade).array();

    Path file = dir.resolve("holder.fds");
    byte[] holderKey = ascii("hold");  // 4 bytes: the value starts at offset 56, 8-aligned
    try (Datastore ds = Datastore.open(file, FULL_SCAN)) {
      ds.put(holderKey, value);
      ds.put(ascii("after"), ascii("a real record after the damage"));
    }
    List<LogFileParser.Entry> entries = LogFileParser.validPrefix(file);
    assertEquals(2, entries.size());
    long holderEnd = entries.get(1).offset();
    RecoveryTest.flipByte(file, 32 + 5);  // a key-length bit of the holding record
    try (Datastore ds = Datastore.open(file, FULL_SCAN)) {
      assertNull(ds.get(ascii("copied")), "a record inside a value is not a record");
      assertNull(ds.get(ascii("victim")), "a record inside a value is not a record");
      assertNull(ds.get(holderKey), "the damaged record is not served");
      assertArrayEquals(ascii("a real record after the damage"), ds.get(ascii("after")));
      assertEquals(List.of(new RecoveryReport.Damage(32, holderEnd, 1)),
          ds.recoveryReport().skipped());
      assertEquals(1, ds.size());
    }
  }

  /**
   * A version 1 file split in place: compacted to version 2 first (a mark may follow tagged
   * records only), then marked, version 3; both pieces hold their keys.
   */
  @Test
  void splitOff_versionOneFile_compactedFirstThenMarkedVersionThree() throws IOException {
    Path file = dir.resolve("v1-split.fds");
    ByteBuffer bytes = ByteBuffer.allocate(4096);
    bytes.put(headerV1(0x4321L));
    bytes.put(recordV1(RecordFormat.KIND_PUT, ascii("a"), ascii("apple"), 1));
    bytes.put(recordV1(RecordFormat.KIND_PUT, ascii("b"), ascii("banana"), 2));
    Files.write(file, Arrays.copyOf(bytes.array(), bytes.position()));
    long bStart = 0x6100_0000_0000_0000L; // "b" pads to 0x62000...: (bStart, bEnd] holds it
    long bEnd = 0x6200_0000_0000_0000L;
    Path part = dir.resolve("b.fds");
    try (Datastore ds = Datastore.open(file, FULL_SCAN)) {
      RangeMoves.splitOff(ds, List.of(new KeyRange(bStart, bEnd)), List.of(part),
          new KeyRange(bEnd, bStart)).forEach(p -> {
            try {
              assertArrayEquals(ascii("banana"), p.get(ascii("b")));
              p.close();
            } catch (IOException e) {
              throw new java.io.UncheckedIOException(e);
            }
          });
    }
    assertEquals(3, ByteBuffer.wrap(Files.readAllBytes(file)).getInt(8),
        "a file with a range mark is version 3");
    try (Datastore ds = Datastore.open(file, FULL_SCAN)) {
      assertArrayEquals(ascii("apple"), ds.get(ascii("a")));
      assertNull(ds.get(ascii("b")), "moved out, and ruled out by the mark on reopen");
      assertEquals(1, ds.size());
    }
  }

  /** A format this version does not know is refused by name, not read as damage. */
  @Test
  void open_unknownFormatVersion_refusedByName() throws IOException {
    Path file = dir.resolve("v4.fds");
    try (Datastore ds = Datastore.open(file, FULL_SCAN)) {
      ds.put(ascii("k"), ascii("v"));
    }
    byte[] raw = Files.readAllBytes(file);
    ByteBuffer.wrap(raw).putInt(8, 4);
    Files.write(file, raw);
    CorruptLogException e = org.junit.jupiter.api.Assertions.assertThrows(
        CorruptLogException.class, () -> Datastore.open(file, FULL_SCAN));
    assertTrue(e.getMessage().contains("format version"), e.getMessage());
    assertTrue(e.getMessage().contains("1..3"), e.getMessage());
  }

  /** A version 1 file opens, takes writes in version 1, and a compaction makes it version 2. */
  @Test
  void open_versionOneFile_readWrittenAndCompactedToVersionTwo() throws IOException {
    Path file = dir.resolve("v1.fds");
    ByteBuffer bytes = ByteBuffer.allocate(4096);
    bytes.put(headerV1(0x1234_5678_9abcL));
    bytes.put(recordV1(RecordFormat.KIND_PUT, ascii("a"), ascii("apple"), 1));
    bytes.put(recordV1(RecordFormat.KIND_PUT, ascii("b"), ascii("banana"), 2));
    bytes.put(recordV1(RecordFormat.KIND_DELETE, ascii("a"), new byte[0], 3));
    Files.write(file, Arrays.copyOf(bytes.array(), bytes.position()));
    try (Datastore ds = Datastore.open(file, FULL_SCAN)) {
      assertNull(ds.get(ascii("a")));
      assertArrayEquals(ascii("banana"), ds.get(ascii("b")));
      assertEquals(4, ds.put(ascii("c"), ascii("cherry")), "sequences go on after the file's");
    }
    List<LogFileParser.Entry> v1 = LogFileParser.validPrefix(file);
    assertEquals(4, v1.size(), "the append kept version 1's layout");
    assertEquals(1, ByteBuffer.wrap(Files.readAllBytes(file)).getInt(8));
    try (Datastore ds = Datastore.open(file, FULL_SCAN)) {
      ds.compact();
    }
    ByteBuffer compacted = ByteBuffer.wrap(Files.readAllBytes(file));
    assertEquals(2, compacted.getInt(8), "a compaction writes version 2");
    List<LogFileParser.Entry> v2 = LogFileParser.validPrefix(file);
    assertEquals(List.of("b", "c"), v2.stream().map(e -> new String(e.key())).toList());
    try (Datastore ds = Datastore.open(file, FULL_SCAN)) {
      assertArrayEquals(ascii("banana"), ds.get(ascii("b")));
      assertArrayEquals(ascii("cherry"), ds.get(ascii("c")));
      assertEquals(5, ds.put(ascii("d"), ascii("date")));
    }
  }

  /**
   * A compaction drops tombstones, which may hold the highest sequence numbers; with no
   * checkpoint to remember them, a reopen must still not give them out again.
   */
  @Test
  void put_afterCompactionDroppedTheNewestTombstones_sequenceNeverReused() throws IOException {
    Path file = dir.resolve("floor.fds");
    long deleted;
    try (Datastore ds = Datastore.open(file, FULL_SCAN)) {
      ds.put(ascii("kept"), ascii("1"));
      ds.put(ascii("gone"), ascii("2"));
      assertTrue(ds.delete(ascii("gone")));
      deleted = ds.lastSequence();
      ds.compact();
    }
    assertEquals(1, LogFileParser.validPrefix(file).size(), "only the live put was copied");
    try (Datastore ds = Datastore.open(file, FULL_SCAN)) {
      assertEquals(deleted, ds.lastSequence());
      assertEquals(deleted + 1, ds.put(ascii("next"), ascii("3")));
    }
  }

  /** The halves of a split go on after the source's last sequence number, reopened too. */
  @Test
  void split_sourceEndsWithATombstone_halvesContinueAfterItsSequence() throws IOException {
    Path file = dir.resolve("source.fds");
    Path low = dir.resolve("low.fds");
    Path high = dir.resolve("high.fds");
    try (Datastore ds = Datastore.open(file, FULL_SCAN)) {
      ds.put(ascii("a"), ascii("1"));
      ds.put(ascii("b"), ascii("2"));
      assertTrue(ds.delete(ascii("b")));
      RangeMoves.SplitResult halves = RangeMoves.split(ds, 0x6100_0000_0000_0000L, low, high);
      try (Datastore lower = halves.lower(); Datastore upper = halves.upper()) {
        assertArrayEquals(ascii("1"), lower.get(ascii("a")));
        assertEquals(0, upper.size());
        assertEquals(4, lower.put(ascii("a"), ascii("1b")));
      }
    }
    try (Datastore upper = Datastore.open(high, FULL_SCAN)) {
      assertEquals(3, upper.lastSequence(), "kept by the empty half's header alone");
    }
  }
}

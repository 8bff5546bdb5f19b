package org.fawnpack.kv.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DatastoreConfigTest {

  @TempDir
  Path dir;

  @Test
  void fromMap_allKeys_parsed() {
    DatastoreConfig c = DatastoreConfig.fromMap(Map.of(
        DatastoreConfig.SYNC.name(), "every-write",
        DatastoreConfig.SYNC_INTERVAL_MS.name(), "250",
        DatastoreConfig.LOAD_FACTOR.name(), "0.8",
        DatastoreConfig.EXPECTED_KEYS.name(), "1000", DatastoreConfig.CHECKPOINT.name(), "false",
        DatastoreConfig.WRITE_BUFFER_BYTES.name(), "65536", "other.key", "ignored"));
    assertEquals(SyncPolicy.EVERY_WRITE, c.sync());
    assertEquals(250, c.syncIntervalMs());
    assertEquals(0.8, c.loadFactor());
    assertEquals(1000, c.expectedKeys());
    assertEquals(false, c.checkpoint());
    assertEquals(65536, c.writeBufferBytes());
  }

  /** The docs carry the table the code prints, so a key or default cannot drift. */
  @Test
  void referenceTable_isInTheDocs() throws Exception {
    String table = DatastoreConfig.referenceTable();
    for (Path doc : new Path[] {Path.of("../docs/configuration.md"), Path.of("../docs/fawn-ds.md")}) {
      assertTrue(java.nio.file.Files.readString(doc).contains(table),
          doc + " lacks the current table:\n" + table);
    }
  }

  @Test
  void defaults_matchDocumentedValues() {
    DatastoreConfig c = DatastoreConfig.defaults();
    assertEquals(SyncPolicy.INTERVAL, c.sync());
    assertEquals(100, c.syncIntervalMs());
    assertEquals(0.9, c.loadFactor());
  }

  private static void assertRejected(String key, String value, String allowed) {
    org.fawnpack.conf.InvalidConfigValueException e = assertThrows(org.fawnpack.conf.InvalidConfigValueException.class,
        () -> DatastoreConfig.fromMap(Map.of(key, value)));
    assertTrue(e.getMessage().contains(key) && e.getMessage().contains(value)
        && e.getMessage().contains(allowed), e.getMessage());
  }

  @Test
  void sync_unknownPolicy() {
    assertRejected(DatastoreConfig.SYNC.name(), "sometimes", "every-write");
  }

  @Test
  void syncInterval_zero() {
    assertRejected(DatastoreConfig.SYNC_INTERVAL_MS.name(), "0", "1..60000");
  }

  @Test
  void loadFactor_aboveMaximum() {
    assertRejected(DatastoreConfig.LOAD_FACTOR.name(), "0.99", "0.95");
  }

  @Test
  void loadFactor_notANumber() {
    assertRejected(DatastoreConfig.LOAD_FACTOR.name(), "high", "a number");
  }

  @Test
  void expectedKeys_negative() {
    assertRejected(DatastoreConfig.EXPECTED_KEYS.name(), "-5", "1..");
  }

  @Test
  void checkpoint_notBoolean() {
    assertRejected(DatastoreConfig.CHECKPOINT.name(), "yes", "true or false");
  }

  @Test
  void writeBuffer_tooSmall() {
    assertRejected(DatastoreConfig.WRITE_BUFFER_BYTES.name(), "100", "4096");
  }

  @Test
  void writebackBytes_belowOneMebibyte() {
    assertRejected(DatastoreConfig.WRITEBACK_BYTES.name(), "4096", "0 (off) or 1048576");
  }

  @Test
  void writebackBytes_zero_turnsItOff() {
    assertEquals(0, DatastoreConfig.fromMap(Map.of(DatastoreConfig.WRITEBACK_BYTES.name(), "0"))
        .writebackBytes());
  }

  @Test
  void fromMap_misspeltKey() {
    assertRejected("fawn.kv.synch", "none", "a known key");
  }

  @Test
  void put_keyTooLong_namesLimitAndLength() throws Exception {
    try (Datastore ds = Datastore.open(dir.resolve("limits.fds"), DatastoreConfig.defaults())) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> ds.put(new byte[65_537], new byte[1]));
      assertTrue(e.getMessage().contains("65536") && e.getMessage().contains("65537"),
          e.getMessage());
      e = assertThrows(IllegalArgumentException.class,
          () -> ds.put(new byte[1], new byte[16 * 1024 * 1024 + 1]));
      assertTrue(e.getMessage().contains("16777217"), e.getMessage());
      e = assertThrows(IllegalArgumentException.class, () -> ds.get(new byte[0]));
      assertTrue(e.getMessage().contains("was 0"), e.getMessage());
    }
  }

  @Test
  void put_largestKeyAndValue_roundTrip() throws Exception {
    byte[] key = new byte[65_536];
    byte[] value = new byte[16 * 1024 * 1024];
    key[65_535] = 7;
    value[value.length - 1] = 9;
    Path file = dir.resolve("largest.fds");
    try (Datastore ds = Datastore.open(file, DatastoreConfig.defaults())) {
      ds.put(key, value);
      ds.put(new byte[] {1}, new byte[] {2});
      assertEquals(9, ds.get(key)[value.length - 1]);
    }
    try (Datastore ds = Datastore.open(file, DatastoreConfig.builder().checkpoint(false).build())) {
      assertEquals(value.length, ds.get(key).length);
      assertEquals(2, ds.get(new byte[] {1})[0]);
    }
  }
}

package org.fawnpack.kv.store;

import static org.fawnpack.kv.store.StoreChild.ascii;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An index checkpoint that recovery passed over must never be used later, even once the log
 * has grown past what it covers. The expected contents come from {@link LogFileParser} (the
 * documented format) and a {@link Model} of the writes, not from the store.
 */
class CheckpointTrustTest {

  @TempDir
  Path dir;

  private static List<byte[]> keys(int count) {
    return java.util.stream.IntStream.range(0, count).mapToObj(i -> ascii("k" + i)).toList();
  }

  /** The model of a file's valid records, replayed in log order. */
  private static Model modelOfFile(Path file) throws IOException {
    Model model = new Model();
    for (LogFileParser.Entry e : LogFileParser.validPrefix(file)) {
      if (e.kind() == RecordFormat.KIND_PUT) {
        model.put(e.key(), e.value());
      } else {
        model.delete(e.key());
      }
    }
    return model;
  }

  /**
   * The sequence: clean close; the log cut below what its checkpoint covers (an older
   * copy restored); open; 1,000 puts; sync; SIGKILL-like halt; reopen. The old checkpoint now
   * fits inside the grown log, and it must not be loaded.
   */
  @Test
  void open_afterACheckpointWasIgnoredAndTheLogGrewPastIt_neverLoadsIt() throws Exception {
    Path file = dir.resolve("restored.fds");
    try (Datastore ds = Datastore.open(file, DatastoreConfig.defaults())) {
      for (int i = 0; i < 1_000; i++) {
        ds.put(ascii("k" + i), ascii("v1-" + i));
      }
    }
    assertTrue(Files.exists(IndexCheckpoint.pathFor(file)), "a clean close writes a checkpoint");
    List<LogFileParser.Entry> entries = LogFileParser.validPrefix(file);
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
      raf.setLength(entries.get(entries.size() / 2).offset());
    }
    Model expected = modelOfFile(file);
    try (ChildJvm child = ChildJvm.start(StoreChild.class, "put-sync-halt", file.toString(), "k",
        "1000")) {
      assertTrue(child.awaitLine("synced", 60_000), "the child synced its puts");
      assertEquals(0, child.waitFor(30_000), "the child halted");
    }
    for (int i = 0; i < 1_000; i++) {
      expected.put(ascii("k" + i), ascii("v2-" + i));
    }
    try (Datastore ds = Datastore.open(file, DatastoreConfig.defaults())) {
      assertFalse(ds.recoveryReport().fromCheckpoint(), "the stale checkpoint was not loaded");
      expected.assertHeldBy(ds, keys(1_000));
    }
  }

  /** A store written with checkpoints off must not later meet the checkpoint of before. */
  @Test
  void open_checkpointsTurnedOffThenOn_oldCheckpointNotLoaded() throws IOException {
    Path file = dir.resolve("toggled.fds");
    DatastoreConfig on = DatastoreConfig.builder().sync(SyncPolicy.NONE).build();
    DatastoreConfig off = DatastoreConfig.builder().sync(SyncPolicy.NONE).checkpoint(false)
        .build();
    Model expected = new Model();
    try (Datastore ds = Datastore.open(file, on)) {
      for (int i = 0; i < 200; i++) {
        ds.put(ascii("k" + i), ascii("first-" + i));
        expected.put(ascii("k" + i), ascii("first-" + i));
      }
    }
    try (Datastore ds = Datastore.open(file, off)) {
      for (int i = 0; i < 200; i += 2) {
        ds.put(ascii("k" + i), ascii("second-" + i));
        expected.put(ascii("k" + i), ascii("second-" + i));
      }
      for (int i = 1; i < 200; i += 10) {
        ds.delete(ascii("k" + i));
        expected.delete(ascii("k" + i));
      }
    }
    assertFalse(Files.exists(IndexCheckpoint.pathFor(file)), "the unused checkpoint is gone");
    try (Datastore ds = Datastore.open(file, on)) {
      assertFalse(ds.recoveryReport().fromCheckpoint());
      expected.assertHeldBy(ds, keys(200));
    }
  }

  /** A checkpoint that fails its checks is deleted when the open passes it over. */
  @Test
  void open_corruptCheckpoint_deletedSoNoLaterOpenSeesIt() throws IOException {
    Path file = dir.resolve("corrupt.fds");
    DatastoreConfig config = DatastoreConfig.builder().sync(SyncPolicy.NONE).build();
    try (Datastore ds = Datastore.open(file, config)) {
      ds.put(ascii("a"), ascii("1"));
    }
    RecoveryTest.flipByte(IndexCheckpoint.pathFor(file), 20);
    try (Datastore ds = Datastore.open(file, config)) {
      assertFalse(ds.recoveryReport().fromCheckpoint());
      assertFalse(Files.exists(IndexCheckpoint.pathFor(file)));
    }
  }
}

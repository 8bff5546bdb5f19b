package org.fawnpack.kv.store;

import static org.fawnpack.kv.store.StoreChild.ascii;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One writer per datastore file: a second open, here or in another process, is refused. */
class FileLockTest {

  @TempDir
  Path dir;

  @Test
  void open_alreadyOpenInThisProcess_refusedNamingTheFile() throws Exception {
    Path file = dir.resolve("twice.fds");
    try (Datastore first = Datastore.open(file, DatastoreConfig.defaults())) {
      first.put(ascii("k"), ascii("v"));
      DatastoreLockedException e = assertThrows(DatastoreLockedException.class,
          () -> Datastore.open(file, DatastoreConfig.defaults()));
      assertTrue(e.getMessage().contains(file.toString()) && e.getMessage().contains("this process"),
          e.getMessage());
      assertArrayEquals(ascii("v"), first.get(ascii("k")), "the first store is unharmed");
      // The refused open must not have dropped the process's lock on the file.
      try (ChildJvm child = ChildJvm.start(StoreChild.class, "try-open", file.toString())) {
        assertEquals("locked", child.nextLine(60_000), "another process is still kept out");
      }
    }
    try (Datastore again = Datastore.open(file, DatastoreConfig.defaults())) {
      assertArrayEquals(ascii("v"), again.get(ascii("k")), "closing releases the lock");
    }
  }

  /** A compaction renames its new file over the old one: the lock and the claim follow it. */
  @Test
  void open_afterCompactionSwappedTheFile_stillRefusedHereAndElsewhere() throws Exception {
    Path file = dir.resolve("compacted.fds");
    try (Datastore ds = Datastore.open(file, DatastoreConfig.defaults())) {
      ds.put(ascii("k"), ascii("v1"));
      ds.put(ascii("k"), ascii("v2"));
      ds.compact();
      assertThrows(DatastoreLockedException.class,
          () -> Datastore.open(file, DatastoreConfig.defaults()));
      try (ChildJvm child = ChildJvm.start(StoreChild.class, "try-open", file.toString())) {
        assertEquals("locked", child.nextLine(60_000));
      }
    }
    try (Datastore ds = Datastore.open(file, DatastoreConfig.defaults())) {
      assertArrayEquals(ascii("v2"), ds.get(ascii("k")));
    }
  }

  @Test
  void open_heldByAnotherProcess_refusedUntilThatProcessIsGone() throws Exception {
    Path file = dir.resolve("shared.fds");
    try (Datastore ds = Datastore.open(file, DatastoreConfig.defaults())) {
      ds.put(ascii("k"), ascii("v"));
    }
    try (ChildJvm child = ChildJvm.start(StoreChild.class, "hold", file.toString())) {
      assertTrue(child.awaitLine("open 1", 60_000), "the child opened the store");
      DatastoreLockedException e = assertThrows(DatastoreLockedException.class,
          () -> Datastore.open(file, DatastoreConfig.defaults()));
      assertTrue(e.getMessage().contains(file.toString())
          && e.getMessage().contains("another process"), e.getMessage());
      assertEquals(file, e.path());
    }
    try (Datastore ds = Datastore.open(file, DatastoreConfig.defaults())) {
      assertArrayEquals(ascii("v"), ds.get(ascii("k")), "a killed holder leaves the file free");
    }
  }
}

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
    }
    try (Datastore again = Datastore.open(file, DatastoreConfig.defaults())) {
      assertArrayEquals(ascii("v"), again.get(ascii("k")), "closing releases the lock");
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

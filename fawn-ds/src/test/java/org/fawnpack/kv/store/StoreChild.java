package org.fawnpack.kv.store;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Child JVM scenarios for {@link ChildJvm}:
 * <ul>
 *   <li>{@code put-sync-halt FILE PREFIX COUNT}: opens the store (default settings), puts
 *       PREFIX-i = "v2-i" for i below COUNT, syncs, prints "synced" and halts as SIGKILL would
 *       (no close, no checkpoint);
 *   <li>{@code hold FILE}: opens the store, prints "open" and keeps it open until killed;
 *   <li>{@code try-open FILE}: prints "opened" when the store opens, "locked" when it is
 *       refused as open elsewhere.
 * </ul>
 */
public final class StoreChild {

  private StoreChild() {}

  public static void main(String[] args) throws IOException, InterruptedException {
    Path file = Path.of(args[1]);
    switch (args[0]) {
      case "put-sync-halt" -> {
        Datastore ds = Datastore.open(file, DatastoreConfig.defaults());
        int count = Integer.parseInt(args[3]);
        for (int i = 0; i < count; i++) {
          ds.put(ascii(args[2] + i), ascii("v2-" + i));
        }
        ds.sync();
        System.out.println("synced");
        System.out.flush();
        Runtime.getRuntime().halt(0);
      }
      case "hold" -> {
        Datastore ds = Datastore.open(file, DatastoreConfig.defaults());
        System.out.println("open " + ds.size());
        System.out.flush();
        Thread.sleep(120_000);
      }
      case "try-open" -> {
        try (Datastore ds = Datastore.open(file, DatastoreConfig.defaults())) {
          System.out.println("opened");
        } catch (DatastoreLockedException e) {
          System.out.println("locked");
        }
      }
      default -> throw new IllegalArgumentException("unknown scenario " + args[0]);
    }
  }

  static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }
}

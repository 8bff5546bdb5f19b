package org.fawnpack.kv.backend;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Whether a back-end's files may rejoin their chains as they are. A member appends a write
 * and passes it on before the write is durable here (only the tail waits for durability), so
 * after a crash its file may lack writes its successor holds, and a head would then give new
 * writes numbers its successor already used. Chain replication assumes fail-stop members for
 * this reason: a back-end that crashed is down, and its arcs are re-replicated from the others.
 * A back-end that stopped cleanly synced every file first, so it may take its place again
 * (its successor is caught up from its file). The proof is a marker written last on a clean
 * stop and deleted on start.
 */
final class CleanShutdown {
  static final String MARKER = "stopped-cleanly";

  private CleanShutdown() {}

  /**
   * True when {@code dir} holds arc files but no marker: the last run did not stop cleanly.
   * Removes the marker, so a crash of this run is seen by the next.
   */
  static boolean crashedBefore(Path dir) throws IOException {
    boolean clean = Files.deleteIfExists(dir.resolve(MARKER));
    if (clean) {
      syncDirectory(dir);
      return false;
    }
    try (DirectoryStream<Path> arcFiles = Files.newDirectoryStream(dir, "arc-*.fds")) {
      return arcFiles.iterator().hasNext();
    }
  }

  /** Every file is closed and synced: the next start may serve them. */
  static void mark(Path dir) throws IOException {
    Files.write(dir.resolve(MARKER), new byte[0]);
    try (FileChannel marker = FileChannel.open(dir.resolve(MARKER), StandardOpenOption.WRITE)) {
      marker.force(true);
    }
    syncDirectory(dir);
  }

  private static void syncDirectory(Path dir) throws IOException {
    try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
      d.force(true);
    }
  }
}

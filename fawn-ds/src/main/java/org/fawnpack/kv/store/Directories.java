package org.fawnpack.kv.store;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Forces a directory's entries to the device. A new file, a rename or a delete lives in its
 * directory: until that is forced, a power cut can undo it even though the file's own bytes
 * were forced (a new range file vanishes, a replaced checkpoint comes back).
 */
public final class Directories {

  private Directories() {}

  /** Forces the directory that holds {@code file}. */
  public static void syncParentOf(Path file) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
      d.force(true);
    }
  }
}

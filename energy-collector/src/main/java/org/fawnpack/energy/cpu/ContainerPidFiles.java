package org.fawnpack.energy.cpu;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Finds a container's root process the way the NodeManager records it: the pid file
 * {@code <local-dir>/nmPrivate/<appId>/<containerId>/<containerId>.pid}, in whichever of the
 * NodeManager's local dirs it chose. The file is written (atomically, by rename) a moment after
 * launch, so "not found" is normal for a new container.
 */
final class ContainerPidFiles {
  private final List<String> localDirs;
  private final SmallFileReader reader = new SmallFileReader();

  ContainerPidFiles(List<Path> localDirs) {
    this.localDirs = localDirs.stream().map(Path::toString).toList();
  }

  /**
   * The pid in the container's pid file, or -1 if no local dir has one (yet) or it does not hold a
   * pid.
   *
   * @throws IOException if a pid file exists but cannot be read
   */
  int find(ContainerProcessKey key) throws IOException {
    if (!isPlainName(key.applicationId()) || !isPlainName(key.containerId())) {
      return -1; // never let an odd id walk out of nmPrivate
    }
    String relative = "/nmPrivate/" + key.applicationId() + "/" + key.containerId() + "/"
        + key.containerId() + ".pid";
    for (String dir : localDirs) {
      int length = reader.read(dir + relative);
      if (length >= 0) {
        long pid = SmallFileReader.parseDecimal(reader.buffer(), 0, length);
        return pid > 0 && pid <= Integer.MAX_VALUE ? (int) pid : -1;
      }
    }
    return -1;
  }

  private static boolean isPlainName(String id) {
    return id != null && !id.isEmpty() && id.indexOf('/') < 0 && !id.equals("..")
        && !id.equals(".");
  }
}

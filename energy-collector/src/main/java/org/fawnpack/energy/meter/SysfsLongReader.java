package org.fawnpack.energy.meter;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Reads one integer attribute file of sysfs. The sysfs meters read every value through this seam
 * so tests can make a read fail in ways a temp directory cannot, e.g. permission denied when
 * the tests run as root (root reads mode-000 files).
 *
 * <p>Implementations throw the file system's own {@link IOException} (a
 * {@link java.nio.file.AccessDeniedException}, a {@link java.nio.file.NoSuchFileException}, ...)
 * so each meter decides what a failure means, and a {@link MeterException} "bad-value" when the
 * file holds no integer.
 */
@FunctionalInterface
interface SysfsLongReader {

  /** The real file system. */
  SysfsLongReader FILES = SysfsFiles::readLong;

  long read(Path file) throws IOException;
}

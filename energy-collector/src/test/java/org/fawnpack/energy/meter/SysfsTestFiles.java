package org.fawnpack.energy.meter;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;

/** Builds sysfs-shaped trees in a temp directory; values are written as the kernel does. */
final class SysfsTestFiles {

  private SysfsTestFiles() {
  }

  /** {@code dir/file} holding {@code value} and a newline, as sysfs attributes read. */
  static Path write(Path dir, String file, Object value) {
    try {
      Files.createDirectories(dir);
      return Files.writeString(dir.resolve(file), value + "\n", StandardCharsets.ISO_8859_1);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Path symlink(Path link, Path target) {
    try {
      Files.createDirectories(link.getParent());
      return Files.createSymbolicLink(link, target);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The spec of meter {@code name} with {@code settings} given as setting, value, ... */
  static MeterSpec spec(String name, String... settings) {
    Configuration conf = new Configuration(false);
    for (int i = 0; i < settings.length; i += 2) {
      conf.set(MeterSpec.PREFIX + name + "." + settings[i], settings[i + 1]);
    }
    return new MeterSpec(name, conf);
  }
}

package org.fawnpack.realdaemons;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A Hadoop 3.5.0 install as a release lays it out ({@code share/hadoop/{common,hdfs,yarn,
 * mapreduce}} with their {@code lib/} directories), assembled by this module's pom from Maven
 * Central. {@link #classpath} is what {@code hadoop classpath} prints on such an install.
 */
final class HadoopLayout {
  static final List<String> PARTS = List.of("common", "hdfs", "yarn", "mapreduce");

  private final Path home;

  private HadoopLayout(Path home) {
    this.home = home;
  }

  /** The layout named by the {@code fawn.hadoop.home} system property (set by the pom). */
  static HadoopLayout fromSystemProperty() throws IOException {
    String dir = System.getProperty("fawn.hadoop.home");
    if (dir == null) {
      throw new IllegalStateException("fawn.hadoop.home is not set: run with -Preal-daemons");
    }
    Path home = Path.of(dir).toAbsolutePath();
    for (String part : PARTS) {
      Path jars = home.resolve("share/hadoop").resolve(part);
      Files.createDirectories(jars.resolve("lib")); // a release has each lib/, maybe empty
      try (var list = Files.list(jars)) {
        if (list.noneMatch(p -> p.toString().endsWith(".jar"))) {
          throw new IllegalStateException(jars + " holds no jar: run with -Preal-daemons");
        }
      }
    }
    return new HadoopLayout(home);
  }

  Path home() {
    return home;
  }

  /**
   * What {@code hadoop classpath} prints on a release: the configuration directory, then per
   * part its lib jars and jars; the hdfs and yarn directories themselves too (hdfs holds the
   * daemons' webapps/).
   */
  String classpath(Path confDir) {
    List<String> entries = new ArrayList<>();
    entries.add(confDir.toString());
    for (String part : PARTS) {
      Path jars = home.resolve("share/hadoop").resolve(part);
      if (part.equals("hdfs") || part.equals("yarn")) {
        entries.add(jars.toString());
      }
      entries.add(jars.resolve("lib") + "/*");
      entries.add(jars + "/*");
    }
    return String.join(File.pathSeparator, entries);
  }
}

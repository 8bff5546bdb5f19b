package org.fawnpack.configs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;

/**
 * Every host's configuration files as Hadoop reads them: each {@code *-site.xml} over its
 * {@code *-default.xml} (when that is on the classpath), so a key left out means Hadoop's
 * default, as on a real node. Built from a rendered cluster in memory or read from a directory.
 */
public final class ClusterConfs {
  public static final List<String> FILES = List.of("core-site.xml", "hdfs-site.xml",
      "yarn-site.xml", "mapred-site.xml", "capacity-scheduler.xml");

  private final String where;
  private final Map<String, Map<String, Configuration>> hosts;
  private final Map<String, Configuration> client;
  private final List<String> workers;
  /** The rendered directory, or null in memory. */
  private final Path dir;
  /** In memory: the plain files every host and the client have alike. */
  private final Map<String, String> plainFiles;

  private ClusterConfs(String where, Map<String, Map<String, Configuration>> hosts,
      Map<String, Configuration> client, List<String> workers, Path dir,
      Map<String, String> plainFiles) {
    this.where = where;
    this.hosts = hosts;
    this.client = client;
    this.workers = List.copyOf(workers);
    this.dir = dir;
    this.plainFiles = Map.copyOf(plainFiles);
  }

  static ClusterConfs of(String cluster, Map<String, Map<String, SiteFile>> rendered,
      Map<String, SiteFile> client, Map<String, String> plainFiles, List<String> workers) {
    Map<String, Map<String, Configuration>> hosts = new LinkedHashMap<>();
    rendered.forEach((host, files) -> hosts.put(host, confsOf(files)));
    return new ClusterConfs("cluster " + cluster, hosts, confsOf(client), workers, null,
        plainFiles);
  }

  private static Map<String, Configuration> confsOf(Map<String, SiteFile> files) {
    Map<String, Configuration> confs = new LinkedHashMap<>();
    for (String name : FILES) {
      Configuration conf = withDefaults(name);
      SiteFile file = files.get(name);
      if (file != null) {
        file.properties().forEach(p -> conf.set(p.key(), p.value(), name));
      }
      confs.put(name, conf);
    }
    return confs;
  }

  /**
   * Reads {@code DIR/<host>/*.xml} for every host directory, {@code DIR/client/*.xml} when there
   * is one, and {@code DIR/workers}.
   */
  public static ClusterConfs read(Path dir) {
    if (!Files.isDirectory(dir)) {
      throw new IllegalArgumentException("not a directory: " + dir);
    }
    Map<String, Map<String, Configuration>> hosts = new TreeMap<>();
    try (Stream<Path> children = Files.list(dir)) {
      for (Path hostDir : children.filter(p -> Files.isRegularFile(p.resolve("yarn-site.xml")))
          .filter(p -> !p.getFileName().toString().equals(RenderedCluster.CLIENT_DIR))
          .sorted().toList()) {
        hosts.put(hostDir.getFileName().toString(), readDir(hostDir));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + dir, e);
    }
    if (hosts.isEmpty()) {
      throw new IllegalArgumentException(dir + " holds no host directory with a yarn-site.xml"
          + " (render one with: fawn profile render --inventory FILE --out " + dir + ")");
    }
    Path clientDir = dir.resolve(RenderedCluster.CLIENT_DIR);
    Map<String, Configuration> client = Files.isDirectory(clientDir) ? readDir(clientDir) : null;
    return new ClusterConfs(dir.toString(), hosts, client, workers(dir), dir, Map.of());
  }

  private static Map<String, Configuration> readDir(Path dir) {
    Map<String, Configuration> confs = new LinkedHashMap<>();
    for (String name : FILES) {
      Configuration conf = withDefaults(name);
      Path file = dir.resolve(name);
      if (Files.isRegularFile(file)) {
        conf.addResource(new org.apache.hadoop.fs.Path(file.toUri()));
        try {
          conf.size(); // parse now, so a broken file is reported here with its path
        } catch (RuntimeException e) {
          throw new ConfigFileException(file.toString(), "(document)", null,
              "is not a Hadoop configuration file: " + e.getMessage());
        }
      }
      confs.put(name, conf);
    }
    return confs;
  }

  private static List<String> workers(Path dir) {
    Path file = dir.resolve("workers");
    if (!Files.isRegularFile(file)) {
      throw new ConfigFileException(file.toString(), "(file)", null, "is missing: the list of"
          + " slave hosts, one per line");
    }
    try {
      List<String> workers = new ArrayList<>();
      for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
        String host = line.strip();
        if (!host.isEmpty() && !host.startsWith("#")) {
          workers.add(host);
        }
      }
      return workers;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  private static Configuration withDefaults(String siteFile) {
    Configuration conf = new Configuration(false);
    String defaults = switch (siteFile) {
      case "core-site.xml" -> "core-default.xml";
      case "hdfs-site.xml" -> "hdfs-default.xml";
      case "yarn-site.xml" -> "yarn-default.xml";
      case "mapred-site.xml" -> "mapred-default.xml";
      default -> null;
    };
    if (defaults != null && ClusterConfs.class.getClassLoader().getResource(defaults) != null) {
      conf.addResource(defaults);
    }
    return conf;
  }

  /** Where the configuration came from (a directory or a cluster name), for messages. */
  public String where() {
    return where;
  }

  public List<String> hostNames() {
    return new ArrayList<>(hosts.keySet());
  }

  public Configuration conf(String host, String file) {
    return host.equals(RenderedCluster.CLIENT_DIR) && client != null ? client.get(file)
        : hosts.get(host).get(file);
  }

  /**
   * A plain file of a host's (or the client's) directory, such as the rack table, or null when
   * the directory has none.
   */
  public String plainFile(String host, String name) {
    if (dir == null) {
      return plainFiles.get(name);
    }
    Path file = pathOf(host, name);
    if (!Files.isRegularFile(file)) {
      return null;
    }
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  /** Where a host's file is (or would be), for messages. */
  public Path pathOf(String host, String name) {
    return (dir == null ? Path.of(host) : dir.resolve(host)).resolve(name);
  }

  /** Whether there is a client directory ({@code DIR/client}). */
  public boolean hasClient() {
    return client != null;
  }

  /** The slave hosts, from the workers file. */
  public List<String> workers() {
    return workers;
  }
}

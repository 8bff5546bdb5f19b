package org.fawnpack.configs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The rendered configuration of a cluster, in memory: per host its files, the workers list and
 * the README. {@link #write} lays it out as {@code DIR/<host>/*.xml}, {@code DIR/<host>/workers},
 * {@code DIR/workers} and {@code DIR/README.md}.
 */
public record RenderedCluster(String cluster, Map<String, Map<String, SiteFile>> hosts,
    List<String> workers, String readme) {

  public void write(Path dir) throws IOException {
    Files.createDirectories(dir);
    String workersText = String.join("\n", workers) + "\n";
    for (Map.Entry<String, Map<String, SiteFile>> host : hosts.entrySet()) {
      Path hostDir = dir.resolve(host.getKey());
      Files.createDirectories(hostDir);
      for (SiteFile file : host.getValue().values()) {
        Files.writeString(hostDir.resolve(file.name()), file.toXml(), StandardCharsets.UTF_8);
      }
      Files.writeString(hostDir.resolve("workers"), workersText, StandardCharsets.UTF_8);
    }
    Files.writeString(dir.resolve("workers"), workersText, StandardCharsets.UTF_8);
    Files.writeString(dir.resolve("README.md"), readme, StandardCharsets.UTF_8);
  }

  /** The configurations of every host, as Hadoop would read them (for validation). */
  public ClusterConfs confs() {
    return ClusterConfs.of(cluster, hosts, workers);
  }
}

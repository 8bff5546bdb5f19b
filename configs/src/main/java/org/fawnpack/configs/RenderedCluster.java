package org.fawnpack.configs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The rendered configuration of a cluster, in memory: per host its files, the client's files, the
 * plain files every host and the client get alike (the rack table), the workers list and the
 * README. {@link #write} lays it out as {@code DIR/<host>/*.xml}, {@code DIR/<host>/workers},
 * {@code DIR/<host>/<plain file>}, {@code DIR/client/*}, {@code DIR/workers} and
 * {@code DIR/README.md}.
 */
public record RenderedCluster(String cluster, Map<String, Map<String, SiteFile>> hosts,
    Map<String, SiteFile> client, Map<String, String> plainFiles, List<String> workers,
    String readme) {
  /** The client configuration's directory under the rendered one (no host may have this name). */
  public static final String CLIENT_DIR = "client";

  public void write(Path dir) throws IOException {
    Files.createDirectories(dir);
    String workersText = String.join("\n", workers) + "\n";
    for (Map.Entry<String, Map<String, SiteFile>> host : hosts.entrySet()) {
      Path hostDir = dir.resolve(host.getKey());
      writeFiles(hostDir, host.getValue());
      Files.writeString(hostDir.resolve("workers"), workersText, StandardCharsets.UTF_8);
      writePlain(hostDir);
    }
    writeFiles(dir.resolve(CLIENT_DIR), client);
    writePlain(dir.resolve(CLIENT_DIR));
    Files.writeString(dir.resolve("workers"), workersText, StandardCharsets.UTF_8);
    Files.writeString(dir.resolve("README.md"), readme, StandardCharsets.UTF_8);
  }

  private static void writeFiles(Path dir, Map<String, SiteFile> files) throws IOException {
    Files.createDirectories(dir);
    for (SiteFile file : files.values()) {
      Files.writeString(dir.resolve(file.name()), file.toXml(), StandardCharsets.UTF_8);
    }
  }

  private void writePlain(Path dir) throws IOException {
    for (Map.Entry<String, String> file : plainFiles.entrySet()) {
      Files.writeString(dir.resolve(file.getKey()), file.getValue(), StandardCharsets.UTF_8);
    }
  }

  /** The configurations of every host and the client, as Hadoop would read them. */
  public ClusterConfs confs() {
    return ClusterConfs.of(cluster, hosts, client, plainFiles, workers);
  }
}

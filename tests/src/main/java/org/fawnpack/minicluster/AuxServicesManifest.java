package org.fawnpack.minicluster;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.fawnpack.energy.EnergyProtocol;

/**
 * The NodeManagers' auxiliary services as a manifest file: MiniMRYarnCluster overwrites
 * {@code yarn.nodemanager.aux-services} with the shuffle alone, but honours a manifest. The
 * NodeManager refuses a manifest whose file or any parent directory is group- or world-writable;
 * that is checked here first so the failure names the directory instead of jobs hanging without
 * a shuffle.
 */
final class AuxServicesManifest {
  static final String SHUFFLE = "mapreduce_shuffle";
  static final String COLLECTOR_CLASS = "org.fawnpack.energy.service.EnergyCollectorService";

  private AuxServicesManifest() {
  }

  /** Writes the manifest under {@code dir} and points {@code conf} at it. */
  static Path install(Path dir, Map<String, String> energyProperties, Configuration conf)
      throws IOException {
    Files.createDirectories(dir);
    Set<PosixFilePermission> ownerOnlyWrites = PosixFilePermissions.fromString("rwxr-xr-x");
    Files.setPosixFilePermissions(dir, ownerOnlyWrites);
    Path file = dir.resolve("aux-services.json");
    Map<String, String> shuffle = new LinkedHashMap<>();
    shuffle.put("class.name", "org.apache.hadoop.mapred.ShuffleHandler");
    shuffle.put("mapreduce.shuffle.port", "0");
    Map<String, String> energy = new LinkedHashMap<>();
    energy.put("class.name", COLLECTOR_CLASS);
    energy.putAll(energyProperties);
    Map<String, Object> manifest = Map.of("services", List.of(
        service(SHUFFLE, shuffle), service(EnergyProtocol.SERVICE_NAME, energy)));
    Files.writeString(file, new ObjectMapper().writerWithDefaultPrettyPrinter()
        .writeValueAsString(manifest));
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
    requireNotGroupOrWorldWritable(file);
    conf.setBoolean(YarnConfiguration.NM_AUX_SERVICES_MANIFEST_ENABLED, true);
    conf.set(YarnConfiguration.NM_AUX_SERVICES_MANIFEST, file.toUri().toString());
    return file;
  }

  private static Map<String, Object> service(String name, Map<String, String> properties) {
    return Map.of("name", name, "version", "1",
        "configuration", Map.of("properties", properties));
  }

  private static void requireNotGroupOrWorldWritable(Path file) throws IOException {
    for (Path p = file.toAbsolutePath(); p != null; p = p.getParent()) {
      Set<PosixFilePermission> perms = Files.getPosixFilePermissions(p);
      if (perms.contains(PosixFilePermission.GROUP_WRITE)
          || perms.contains(PosixFilePermission.OTHERS_WRITE)) {
        throw new IOException("The NodeManager will refuse the aux-services manifest " + file
            + " because " + p + " is group- or world-writable ("
            + PosixFilePermissions.toString(perms) + "); put the cluster's base directory "
            + "somewhere else (system property " + EmbeddedClusterSpec.BASE_DIR_PROPERTY + ")");
      }
    }
  }
}

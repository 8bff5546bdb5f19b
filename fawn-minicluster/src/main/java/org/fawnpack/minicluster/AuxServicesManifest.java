package org.fawnpack.minicluster;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.fawnpack.energy.EnergyProtocol;

/**
 * The NodeManagers' auxiliary services as a manifest file: MiniMRYarnCluster overwrites
 * {@code yarn.nodemanager.aux-services} with the shuffle alone, but honours a manifest.
 *
 * <p>The manifest lives in the cluster's own HDFS, not on the local disk: the NodeManager refuses
 * a manifest whose file or any parent directory up to the root is group- or world-writable, and a
 * checkout under /tmp (mode 1777) would fail that check on the local file system. In HDFS the
 * whole path is ours and gets mode 755/644.
 */
final class AuxServicesManifest {
  static final String SHUFFLE = "mapreduce_shuffle";
  static final String COLLECTOR_CLASS = "org.fawnpack.energy.service.EnergyCollectorService";
  static final Path LOCATION = new Path("/fawn/conf/aux-services.json");
  /** The master NodeManager's own ({@link MasterNodeManager}). */
  static final Path MASTER_LOCATION = new Path("/fawn/conf/master-aux-services.json");

  private AuxServicesManifest() {
  }

  /** Writes the slaves' manifest to {@code fs} and points {@code conf} at it. */
  static Path install(FileSystem fs, Map<String, String> energyProperties, Configuration conf)
      throws IOException {
    Path qualified = write(fs, LOCATION, energyProperties);
    conf.setBoolean(YarnConfiguration.NM_AUX_SERVICES_MANIFEST_ENABLED, true);
    conf.set(YarnConfiguration.NM_AUX_SERVICES_MANIFEST, qualified.toString());
    return qualified;
  }

  /** Writes a manifest of the shuffle and a collector of {@code energyProperties} to {@code location}. */
  static Path write(FileSystem fs, Path location, Map<String, String> energyProperties)
      throws IOException {
    Map<String, String> shuffle = new LinkedHashMap<>();
    shuffle.put("class.name", "org.apache.hadoop.mapred.ShuffleHandler");
    shuffle.put("mapreduce.shuffle.port", "0");
    Map<String, String> energy = new LinkedHashMap<>();
    energy.put("class.name", COLLECTOR_CLASS);
    energy.putAll(energyProperties);
    Map<String, Object> manifest = Map.of("services", List.of(
        service(SHUFFLE, shuffle), service(EnergyProtocol.SERVICE_NAME, energy)));
    byte[] json = new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsString(manifest)
        .getBytes(StandardCharsets.UTF_8);

    for (Path dir = location.getParent(); dir != null && !dir.isRoot(); dir = dir.getParent()) {
      fs.mkdirs(dir);
      fs.setPermission(dir, new FsPermission((short) 0755));
    }
    try (OutputStream out = fs.create(location, true)) {
      out.write(json);
    }
    fs.setPermission(location, new FsPermission((short) 0644));
    Path qualified = fs.makeQualified(location);
    return qualified;
  }

  private static Map<String, Object> service(String name, Map<String, String> properties) {
    return Map.of("name", name, "version", "1",
        "configuration", Map.of("properties", properties));
  }
}

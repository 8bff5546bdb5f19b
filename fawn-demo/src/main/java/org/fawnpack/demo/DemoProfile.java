package org.fawnpack.demo;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import org.fawnpack.configs.ClusterRenderer;
import org.fawnpack.configs.Finding;
import org.fawnpack.configs.Inventory;
import org.fawnpack.configs.Profile;
import org.fawnpack.configs.ProfileReader;
import org.fawnpack.configs.RenderedCluster;
import org.fawnpack.configs.Role;
import org.fawnpack.configs.Validator;
import org.fawnpack.minicluster.EmbeddedClusterSpec;
import org.fawnpack.minicluster.RenderedClusterConfig;

/**
 * The demo's cluster as {@code fawn profile render} would configure it: a brawny master and
 * slaves of the chosen profile (four unless told otherwise), rendered, validated, written next
 * to the demo's output and applied to the embedded cluster, power models included.
 */
final class DemoProfile {
  /** Slaves unless told otherwise: enough to spread maps, few enough for a 2-core machine. */
  static final int SLAVES = 4;

  private DemoProfile() {}

  static EmbeddedClusterSpec.Builder apply(EmbeddedClusterSpec.Builder builder, String profile,
      int slaves, Path confDir, PrintStream out) throws IOException {
    Inventory inventory = inventory(profile, slaves);
    RenderedCluster rendered = ClusterRenderer.render(inventory);
    List<Finding> findings = Validator.validate(rendered.confs());
    findings.forEach(f -> out.println("profile " + profile + ": " + f));
    if (Validator.hasErrors(findings)) {
      throw new IllegalArgumentException("profile " + profile + " gives settings that cannot run"
          + " (above)");
    }
    rendered.write(confDir);
    RenderedClusterConfig.applyTo(builder, confDir);
    // The embedded cluster has one DataNode; the rendered replication counts the slaves'.
    builder.set("dfs.replication", "1");
    return builder;
  }

  /** The named profile (built-in or file), which must be a slave profile. */
  static Profile slaveProfile(String profile) {
    Profile slave = ProfileReader.load(profile);
    if (slave.role() != Role.SLAVE) {
      throw new IllegalArgumentException("is a " + slave.role().yamlName()
          + " profile; the demo needs a slave profile");
    }
    return slave;
  }

  private static Inventory inventory(String profile, int slaves) {
    List<Inventory.Host> hosts = new java.util.ArrayList<>();
    hosts.add(new Inventory.Host("demo-master", ProfileReader.builtIn("brawny-master"), List.of()));
    Profile slave = slaveProfile(profile);
    for (int i = 1; i <= slaves; i++) {
      hosts.add(new Inventory.Host("demo-slave-" + i, slave, List.of()));
    }
    return new Inventory("demo", "(the demo's built-in inventory)", Inventory.DEFAULT_ENERGY_JAR,
        Inventory.DEFAULT_CONF_DIR, hosts, java.util.Map.of());
  }
}

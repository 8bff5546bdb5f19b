package org.fawnpack.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.fawnpack.minicluster.EmbeddedCluster;
import org.fawnpack.minicluster.EmbeddedClusterSpec;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DemoProfileTest {

  @TempDir
  Path dir;

  @Test
  void apply_edison_sizesSlavesAndMasterFromTheRenderedFiles() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    EmbeddedClusterSpec spec = DemoProfile.apply(EmbeddedCluster.builder().baseDir(dir),
        "edison", DemoProfile.SLAVES, dir.resolve("conf"), new PrintStream(out, true,
            StandardCharsets.UTF_8)).spec();

    // Seed 003 §5.2 (typed in): Edison NodeManagers of 600 MB / 2 vcores, 300 MB reduces; the
    // brawny master's 4096 MB NodeManager runs the 500 MB AMs. Maps of 250 MB with -Xmx120m:
    // a Java 17 task JVM holds 130 MB besides its heap (docs/profiles.md), not the paper's 10.
    assertEquals(4, spec.nodeManagers());
    assertEquals(600, spec.nodeMemoryMb());
    assertEquals(2, spec.nodeVcores());
    assertEquals(4096, spec.masterMemoryMb());
    Configuration conf = spec.clusterConf();
    assertEquals(250, conf.getInt("mapreduce.map.memory.mb", -1));
    assertEquals(300, conf.getInt("mapreduce.reduce.memory.mb", -1));
    assertEquals(500, conf.getInt("yarn.app.mapreduce.am.resource.mb", -1));
    assertTrue(conf.get("mapreduce.map.java.opts").startsWith("-Xmx120m "));
    assertEquals("master", conf.get("mapreduce.job.am.node-label-expression"));
    assertEquals(1, conf.getInt("dfs.replication", -1));
    assertTrue(Files.isRegularFile(dir.resolve("conf/demo-master/yarn-site.xml")));
    assertEquals("", out.toString(StandardCharsets.UTF_8), "no findings for edison");
  }

  @Test
  void apply_dellR620_twoSlaves_eachSideMeteredByItsOwnProfilesPowerModel() throws Exception {
    EmbeddedClusterSpec spec = DemoProfile.apply(EmbeddedCluster.builder().baseDir(dir), "dell-r620",
        2, dir.resolve("conf"), new PrintStream(new ByteArrayOutputStream(), true,
            StandardCharsets.UTF_8)).spec();
    // Seed 003 §5.2 and Table 3 (typed in): Dell slaves of 12 GB / 12 vcores for tasks, 52 W
    // idle and 109 W busy; the master is a Dell too, apart from the cluster's joules.
    assertEquals(2, spec.nodeManagers());
    assertEquals(12288, spec.nodeMemoryMb());
    assertEquals(12, spec.nodeVcores());
    Map<String, String> slave = spec.energyProperties();
    assertEquals("model", slave.get("fawn.energy.meters"));
    assertEquals(52.0, Double.parseDouble(slave.get("fawn.energy.meter.model.idle-watts")));
    assertEquals(109.0, Double.parseDouble(slave.get("fawn.energy.meter.model.busy-watts")));
    assertEquals("containers", slave.get("fawn.energy.meter.model.utilisation"));
    assertEquals(null, slave.get("fawn.energy.node.role"));
    Map<String, String> master = spec.masterEnergyProperties();
    assertEquals("master", master.get("fawn.energy.node.role"));
    assertEquals(52.0, Double.parseDouble(master.get("fawn.energy.meter.model.idle-watts")));

    EmbeddedClusterSpec edison = DemoProfile.apply(EmbeddedCluster.builder().baseDir(
        dir.resolve("e")), "edison", 4, dir.resolve("e-conf"), new PrintStream(
            new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)).spec();
    assertEquals(1.40, Double.parseDouble(edison.energyProperties().get(
        "fawn.energy.meter.model.idle-watts")));
    assertEquals(1.68, Double.parseDouble(edison.energyProperties().get(
        "fawn.energy.meter.model.busy-watts")));
  }

  @Test
  void slaveProfile_masterProfile_isRejected() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> DemoProfile.slaveProfile("brawny-master"));
    assertTrue(e.getMessage().contains("needs a slave profile"), e.getMessage());
  }

  @Test
  void slaveProfile_unknownName_isRejected() {
    assertThrows(IllegalArgumentException.class, () -> DemoProfile.slaveProfile("cray-1"));
  }
}

package org.fawnpack.energy.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/** How {@link ProcessTreeCpuSource} reads the NodeManager's local dirs from the configuration. */
class ProcessTreeCpuSourceConfigTest {

  @Test
  void localDirs_listWithSpacesAndFileUris_splitAndTrimmed() {
    Configuration conf = new Configuration(false);
    conf.set("yarn.nodemanager.local-dirs", " /data/1/yarn , file:///data/2/yarn,file:/data/3 ,");
    assertEquals(List.of(Path.of("/data/1/yarn"), Path.of("/data/2/yarn"), Path.of("/data/3")),
        ProcessTreeCpuSource.localDirs(conf));
  }

  @Test
  void localDirs_variablesInValueOrDefault_resolved() {
    Configuration conf = new Configuration(false);
    conf.set("hadoop.tmp.dir", "/var/tmp/hadoop-fawn");
    assertEquals(List.of(Path.of("/var/tmp/hadoop-fawn/nm-local-dir")),
        ProcessTreeCpuSource.localDirs(conf));
    conf.set("yarn.nodemanager.local-dirs", "${hadoop.tmp.dir}/a,${hadoop.tmp.dir}/b");
    assertEquals(List.of(Path.of("/var/tmp/hadoop-fawn/a"), Path.of("/var/tmp/hadoop-fawn/b")),
        ProcessTreeCpuSource.localDirs(conf));
  }

  @Test
  void fromConfiguration_settingsGiven_sourceBuilt() {
    Configuration conf = new Configuration(false);
    conf.set("yarn.nodemanager.local-dirs", "/nonexistent/nm");
    conf.set("yarn.nodemanager.linux-container-executor.cgroups.mount-path", "/nonexistent/cg");
    ProcessTreeCpuSource source = ProcessTreeCpuSource.fromConfiguration(conf);
    assertEquals(0, source.cumulativeCpuNanos(List.of(new ContainerProcessKey(
        "application_1_0001", "container_1_0001_01_000001"))).size());
  }
}

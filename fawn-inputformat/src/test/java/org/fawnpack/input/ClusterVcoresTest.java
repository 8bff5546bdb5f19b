package org.fawnpack.input;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class ClusterVcoresTest {

  @Test
  void admitsMaps_noMapLabel_admitsOnlyUnlabelledNodes() {
    assertTrue(ClusterVcores.admitsMaps(null, ""));
    assertTrue(ClusterVcores.admitsMaps(Set.of(), ""));
    assertFalse(ClusterVcores.admitsMaps(Set.of("master"), ""));
    assertFalse(ClusterVcores.admitsMaps(Set.of("master", "ssd"), ""));
  }

  @Test
  void admitsMaps_mapLabel_admitsOnlyNodesCarryingIt() {
    assertTrue(ClusterVcores.admitsMaps(Set.of("wimpy"), "wimpy"));
    assertTrue(ClusterVcores.admitsMaps(Set.of("ssd", "wimpy"), "wimpy"));
    assertFalse(ClusterVcores.admitsMaps(Set.of("master"), "wimpy"));
    assertFalse(ClusterVcores.admitsMaps(Set.of(), "wimpy"));
    assertFalse(ClusterVcores.admitsMaps(null, "wimpy"));
  }

  @Test
  void admitsMaps_labelsAreCaseSensitive() {
    assertFalse(ClusterVcores.admitsMaps(Set.of("Wimpy"), "wimpy"));
  }

  @Test
  void forJob_explicitVcores_winsEvenOnYarn() throws Exception {
    Configuration conf = new Configuration(false);
    conf.set("mapreduce.framework.name", "yarn"); // would ask a ResourceManager if consulted
    conf.set("yarn.resourcemanager.address", "127.0.0.1:1");
    conf.set(FawnInputConfig.VCORES.name(), "12");
    assertEquals(12, ClusterVcores.forJob(conf));
  }

  @Test
  void forJob_localFramework_isThisMachinesProcessors() throws Exception {
    Configuration conf = new Configuration(false);
    conf.set("mapreduce.framework.name", "local");
    assertEquals(Runtime.getRuntime().availableProcessors(), ClusterVcores.forJob(conf));
  }

  @Test
  void forJob_frameworkUnset_isThisMachinesProcessors() throws Exception {
    assertEquals(Runtime.getRuntime().availableProcessors(),
        ClusterVcores.forJob(new Configuration(false)));
  }

  @Test
  void forJob_badExplicitVcores_rejectedNamingTheKey() {
    Configuration conf = new Configuration(false);
    conf.set(FawnInputConfig.VCORES.name(), "0");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ClusterVcores.forJob(conf));
    assertTrue(e.getMessage().contains(FawnInputConfig.VCORES.name()), e.getMessage());
  }
}

package org.fawnpack.minicluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class EmbeddedClusterSpecTest {

  @Test
  void clusterConf_defaultSpec_fitsTwoMapsAndTheAmOnOneGigabyteNodes() {
    Configuration conf = EmbeddedCluster.builder().spec().clusterConf();
    int node = conf.getInt("yarn.minicluster.yarn.nodemanager.resource.memory-mb", 0);
    assertEquals(1024, node);
    assertTrue(2 * conf.getInt("mapreduce.map.memory.mb", 0) <= node);
    assertTrue(conf.getInt("yarn.app.mapreduce.am.resource.mb", 0)
        + conf.getInt("mapreduce.map.memory.mb", 0) <= node);
    // The scheduler minimum must not exceed a node, or the RM shuts the NodeManager down.
    assertTrue(conf.getInt("yarn.scheduler.minimum-allocation-mb", 0) <= node);
    assertTrue(conf.getInt("mapreduce.task.io.sort.mb", 0) < 300, "sort buffer below -Xmx300m");
  }

  @Test
  void set_override_winsOverTheDefaults() {
    Configuration conf = EmbeddedCluster.builder().set("mapreduce.map.memory.mb", "256").spec()
        .clusterConf();
    assertEquals(256, conf.getInt("mapreduce.map.memory.mb", 0));
  }

  @Test
  void nodeManagers_outOfRange_rejectedWithTheValue() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> EmbeddedCluster.builder().nodeManagers(0));
    assertEquals("nodeManagers must be in [1, 64]: 0", e.getMessage());
  }

  @Test
  void name_withSlash_rejected() {
    assertThrows(IllegalArgumentException.class, () -> EmbeddedCluster.builder().name("a/b"));
  }
}

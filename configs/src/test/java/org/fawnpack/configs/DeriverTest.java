package org.fawnpack.configs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DeriverTest {

  @Test
  void derive_edisonResources_givesThePapersNodeWithJava17Heaps() {
    Profile p = Deriver.derive("e", 2, 960, 1, Role.SLAVE);
    // Seed 003 §5.2 and §5.2.1, typed in from the paper, for the node: 600 MB / 2 vcores, 300 MB
    // containers and reduces, 16 MB blocks, replication 2. The JVMs by hand from the measured
    // Java 17 non-heap (130 MB per task, 170 per AM; the paper left 10 and 40 MB on Java 7):
    // maps of 100 + 130 MB up to 50 = 250 with -Xmx120m and io.sort.mb 0.4 x 120 = 48 (paper:
    // 150, 140, 70); reduce heap 300 - 130 = 170 (paper: 260); AM one container, 300 - 170 =
    // 130 (paper: 100 MB, no heap). The paper's reduce-side io.sort.mb=100 has no setting: in
    // Hadoop 3.5.0 only map tasks (MapTask$MapOutputBuffer) read mapreduce.task.io.sort.mb.
    Map<Setting, Integer> expected = Map.ofEntries(
        Map.entry(Setting.NODE_MEMORY_MB, 600), Map.entry(Setting.VCORES, 2),
        Map.entry(Setting.CONTAINER_MB, 300), Map.entry(Setting.MAP_MEMORY_MB, 250),
        Map.entry(Setting.MAP_HEAP_MB, 120), Map.entry(Setting.IO_SORT_MB, 48),
        Map.entry(Setting.REDUCE_MEMORY_MB, 300), Map.entry(Setting.REDUCE_HEAP_MB, 170),
        Map.entry(Setting.AM_MEMORY_MB, 300), Map.entry(Setting.AM_HEAP_MB, 130),
        Map.entry(Setting.BLOCK_SIZE_MB, 16), Map.entry(Setting.REPLICATION, 2));
    expected.forEach((s, v) -> assertEquals(v, p.get(s), s.yamlName()));
  }

  @Test
  void derive_everyHeapLeavesItsContainerTheMeasuredNonHeap() {
    for (int[] node : new int[][] {{2, 960, 1}, {2, 1500, 1}, {4, 4096, 1}, {4, 8192, 2},
        {12, 16384, 1}, {16, 65536, 4}}) {
      Profile p = Deriver.derive("n", node[0], node[1], node[2], Role.SLAVE);
      assertTrue(p.get(Setting.MAP_HEAP_MB) + JvmMemory.TASK_NON_HEAP_MB
          <= p.get(Setting.MAP_MEMORY_MB), java.util.Arrays.toString(node));
      assertTrue(p.get(Setting.REDUCE_HEAP_MB) + JvmMemory.TASK_NON_HEAP_MB
          <= p.get(Setting.REDUCE_MEMORY_MB), java.util.Arrays.toString(node));
      assertTrue(p.get(Setting.AM_HEAP_MB) + JvmMemory.AM_NON_HEAP_MB
          <= p.get(Setting.AM_MEMORY_MB), java.util.Arrays.toString(node));
      assertTrue(p.get(Setting.IO_SORT_MB) < p.get(Setting.MAP_HEAP_MB));
    }
  }

  @Test
  void derive_edisonResources_matchesTheShippedEdisonProfile() {
    Profile derived = Deriver.derive("e", 2, 960, 1, Role.SLAVE);
    Profile shipped = ProfileReader.builtIn("edison");
    for (Setting s : Setting.values()) {
      assertEquals(shipped.get(s), derived.get(s), s.yamlName());
    }
  }

  /** The ARM profiles say "tuning by derive": their shipped numbers must be what derive gives. */
  @Test
  void derive_armProfilesResources_reproducesTheirShippedTuning() {
    for (String name : List.of("imx6q-novena", "rpi4-4g", "rpi5-8g")) {
      Profile shipped = ProfileReader.builtIn(name);
      Profile derived = Deriver.derive(name, shipped.resources().cores().intValue(),
          shipped.resources().memoryMb().intValue(), shipped.resources().disks().intValue(),
          Role.SLAVE);
      assertEquals(derived.tuning().keySet(), shipped.tuning().keySet(), name);
      for (Setting s : derived.tuning().keySet()) {
        assertEquals(derived.get(s), shipped.get(s), name + " " + s.yamlName());
        assertEquals(derived.sourced(s).source(), shipped.sourced(s).source(),
            name + " " + s.yamlName() + ": the shipped source should be derive's");
      }
    }
  }

  @Test
  void derive_largeNode_followsHdpRulesWorkedByHand() {
    // 16 cores, 64 GB, 4 disks: HDP reserves 8 GB, minimum container 2 GB;
    // containers = min(32, ceil(7.2) = 8, 57344 / 2048 = 28) = 8; 57344 / 8 = 7168 MB each.
    Profile p = Deriver.derive("big", 16, 64 * 1024, 4, Role.SLAVE);
    assertEquals(8 * 7168, p.get(Setting.NODE_MEMORY_MB));
    assertEquals(7168, p.get(Setting.MAP_MEMORY_MB));
    assertEquals(5734, p.get(Setting.MAP_HEAP_MB));     // 0.8 x 7168
    assertEquals(2867, p.get(Setting.IO_SORT_MB));      // 0.4 x 7168
    assertEquals(14336, p.get(Setting.REDUCE_MEMORY_MB));
    assertEquals(14336, p.get(Setting.AM_MEMORY_MB));
    assertEquals(256, p.get(Setting.BLOCK_SIZE_MB));    // 2^8 <= 7168 / 16 = 448
    assertEquals(3, p.get(Setting.REPLICATION));
  }

  @Test
  void derive_fourGigabytesOneDisk_isCappedByTheDisk() {
    // 4 GB: 1 GB reserved, 256 MB minimum; min(8, ceil(1.8) = 2, 12) = 2 containers of 1536 MB.
    Profile p = Deriver.derive("pi", 4, 4096, 1, Role.SLAVE);
    assertEquals(3072, p.get(Setting.NODE_MEMORY_MB));
    assertEquals(1536, p.get(Setting.MAP_MEMORY_MB));
    assertEquals(3072, p.get(Setting.REDUCE_MEMORY_MB));
  }

  @Test
  void derive_master_keepsRoomForTheDaemons() {
    // 16 GB: 2 GB reserved by HDP, 3 GB for NameNode, ResourceManager and JobHistory.
    Profile p = Deriver.derive("m", 12, 16 * 1024, 1, Role.MASTER);
    assertEquals(16384 - 2048 - 3072, p.get(Setting.NODE_MEMORY_MB));
    // AM = 2 x HDP's minimum container for 16 GB (1 GB).
    assertEquals(2048, p.get(Setting.AM_MEMORY_MB));
    assertEquals(1638, p.get(Setting.AM_HEAP_MB));
    assertEquals(Role.MASTER, p.role());
  }

  @Test
  void derive_tooLittleMemory_isRejected() {
    assertThrows(IllegalArgumentException.class, () -> Deriver.derive("x", 1, 500, 1, Role.SLAVE));
    assertThrows(IllegalArgumentException.class, () -> Deriver.derive("x", 1, 600, 1, Role.SLAVE));
  }

  @Test
  void derive_edisonAsMaster_isRejected() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Deriver.derive("x", 2, 960, 1, Role.MASTER));
    assertEquals(true, e.getMessage().contains("too small for a master"), e.getMessage());
  }

  @Test
  void derive_output_readsBackAsTheSameProfile() {
    Profile p = Deriver.derive("pi5", 4, 8192, 1, Role.SLAVE);
    Profile back = ProfileReader.parse("derived.yaml", ProfileYaml.write(p));
    assertEquals(p.tuning(), back.tuning());
    assertEquals(p.resources(), back.resources());
  }
}

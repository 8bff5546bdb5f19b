package org.fawnpack.jobs.pi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.api.records.Resource;
import org.junit.jupiter.api.Test;

/** The placement rule over settings and node reports, without a cluster. */
class PiPlacementTest {
  /** The demo's layout: a 12-vcore master labelled 'master' for the AMs, four 2-vcore slaves. */
  private static final List<NodeReport> DEMO = List.of(node("boss", 12, "master"),
      node("s1", 2), node("s2", 2), node("s3", 2), node("s4", 2));
  /** A cluster without labels, one node larger than the rest. */
  private static final List<NodeReport> FLAT = List.of(node("a", 2), node("b", 4), node("c", 2));

  private static NodeReport node(String host, int vcores, String... labels) {
    return NodeReport.newInstance(NodeId.newInstance(host, 1), NodeState.RUNNING, host + ":2",
        "/default-rack", Resource.newInstance(0, 0), Resource.newInstance(4096, vcores), 0, "",
        0L, Set.of(labels), null, null);
  }

  private static PiPlacement.Settings settings(Boolean userUber, String amLabel, int maps,
      long samples) {
    return new PiPlacement.Settings(userUber, amLabel, "", maps, samples,
        PiPlanner.DEFAULT_MAX_POINTS, 9, 0, 12);
  }

  @Test
  void decide_amOnTheMasterLabel_containersOnTheSlavesOnePerVcore() {
    PiPlacement p = PiPlacement.decide(settings(null, "master", 8, 1000), DEMO, 8);
    assertFalse(p.uber());
    assertEquals("", p.label());
    assertEquals(8, p.tasks());
    assertEquals(1, p.vcores());
    assertTrue(p.reason().contains("'master'"), p.reason());
  }

  @Test
  void decide_amOnTheMasterLabel_moreMapsThanVcores_oneTaskPerVcore() {
    PiPlacement p = PiPlacement.decide(settings(null, "master", 100, 1000), DEMO, 8);
    assertFalse(p.uber());
    assertEquals(8, p.tasks());
  }

  @Test
  void decide_fewerMapsThanVcores_oneTaskPerMap() {
    assertEquals(3, PiPlacement.decide(settings(null, "master", 3, 1000), DEMO, 8).tasks());
  }

  @Test
  void decide_noLabelsSmallTotal_uberOnTheLargestMapNode() {
    PiPlacement p = PiPlacement.decide(settings(null, "", 4, 1000), FLAT, 7);
    assertTrue(p.uber());
    assertEquals("", p.label());
    assertEquals(4, p.vcores());
    assertEquals(4, p.tasks());
  }

  @Test
  void decide_noAmLabel_uberSizedFromUnlabelledNodesOnly() {
    // The AM and maps go to unlabelled nodes: the 12-vcore master is never one of them.
    PiPlacement p = PiPlacement.decide(settings(null, "", 4, 1000), DEMO, 7);
    assertTrue(p.uber());
    assertEquals(2, p.vcores());
  }

  @Test
  void decide_noLabelsLargeTotal_containers() {
    PiPlacement p = PiPlacement.decide(settings(null, "", 8, 200_000_000L), FLAT, 7);
    assertFalse(p.uber());
    assertEquals(7, p.tasks());
    assertTrue(p.reason().contains(PiPlanner.MAX_POINTS), p.reason());
  }

  @Test
  void decide_moreMapsThanUberMaxMaps_containers() {
    assertFalse(PiPlacement.decide(settings(null, "", 10, 10), FLAT, 7).uber());
  }

  @Test
  void decide_forcedUberWithTheMasterLabel_uberOnTheMastersVcores() {
    PiPlacement p = PiPlacement.decide(settings(true, "master", 8, 1000), DEMO, 8);
    assertTrue(p.uber());
    assertEquals("master", p.label());
    assertEquals(12, p.vcores());
    assertTrue(p.reason().contains("mapreduce.job.ubertask.enable=true"), p.reason());
  }

  @Test
  void decide_forcedUber_cappedByTheSchedulersLargestAllocation() {
    PiPlacement.Settings s = new PiPlacement.Settings(true, "master", "", 8, 1000,
        PiPlanner.DEFAULT_MAX_POINTS, 9, 0, 4);
    assertEquals(4, PiPlacement.decide(s, DEMO, 8).vcores());
  }

  @Test
  void decide_forcedOffWithoutLabels_containersEvenWhenSmall() {
    PiPlacement p = PiPlacement.decide(settings(false, "", 4, 10), FLAT, 7);
    assertFalse(p.uber());
    assertEquals(4, p.tasks());
  }

  @Test
  void decide_userMapVcores_keptAndTasksPerSlotOfThatSize() {
    PiPlacement.Settings s = new PiPlacement.Settings(false, "master", "", 8, 1000,
        PiPlanner.DEFAULT_MAX_POINTS, 9, 2, 12);
    PiPlacement p = PiPlacement.decide(s, DEMO, 8);
    assertEquals(2, p.vcores());
    assertEquals(4, p.tasks());
  }

  @Test
  void largestVcores_noNodeCarriesTheLabel_one() {
    assertEquals(1, PiPlacement.largestVcores(FLAT, "master", 12));
  }

  @Test
  void carries_sameRuleAsClusterVcores() {
    assertTrue(PiPlacement.carries(null, ""));
    assertTrue(PiPlacement.carries(Set.of(), ""));
    assertFalse(PiPlacement.carries(Set.of("master"), ""));
    assertTrue(PiPlacement.carries(Set.of("master"), "master"));
    assertFalse(PiPlacement.carries(Set.of(), "master"));
  }
}

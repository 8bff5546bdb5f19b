package org.fawnpack.jobs.pi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.JobCounter;
import org.junit.jupiter.api.Test;

/** The after-job lines from given nodes, labels and counters. */
class PiRunReportTest {

  @Test
  void describeNodes_groupedByLabel() {
    assertEquals("1 node labelled 'master' (boss:1) and 2 nodes without a node label (e1:1, e2:1)",
        PiRunReport.describeNodes(new TreeSet<>(Set.of("e1:1", "e2:1", "boss:1")),
            Map.of("e1:1", Set.of(), "e2:1", Set.of(), "boss:1", Set.of("master"))));
  }

  @Test
  void describeNodes_nodeGoneFromTheResourceManager_labelUnknown() {
    assertEquals("1 node the ResourceManager no longer reports (label unknown) (x:1)",
        PiRunReport.describeNodes(Set.of("x:1"), Map.of()));
  }

  @Test
  void describeNodes_manyNodes_sixListedTheRestCounted() {
    Set<String> nodes = new TreeSet<>();
    for (int i = 0; i < 8; i++) {
      nodes.add("n" + i + ":1");
    }
    assertEquals("8 nodes without a node label (n0:1, n1:1, n2:1, n3:1, n4:1, n5:1, +2 more)",
        PiRunReport.describeNodes(nodes, Map.of()).replace(
            "the ResourceManager no longer reports (label unknown)", "without a node label"));
  }

  @Test
  void describeNodes_none_saysSo() {
    assertEquals("no node reported by the job's task attempts",
        PiRunReport.describeNodes(Set.of(), Map.of()));
  }

  @Test
  void startUp_taskJvms_averagePerJvm() {
    Counters counters = new Counters();
    counters.findCounter(JobCounter.TOTAL_LAUNCHED_MAPS).setValue(4);
    counters.findCounter(PiCounter.TASK_JVMS).setValue(4);
    counters.findCounter(PiCounter.TASK_START_MILLIS).setValue(10_000);
    counters.findCounter(PiCounter.TASK_START_CPU_MILLIS).setValue(6_000);
    counters.findCounter(PiCounter.COUNT_MILLIS).setValue(2_000);
    assertEquals("pi start-up: 4 task JVM(s), each 2.5 s from JVM start to the map (1.5 s of"
        + " CPU); counting took 0.50 s per map", PiRunReport.startUp(counters));
  }

  @Test
  void startUp_uberJob_noTaskJvm() {
    Counters counters = new Counters();
    counters.findCounter(JobCounter.TOTAL_LAUNCHED_MAPS).setValue(2);
    counters.findCounter(PiCounter.COUNT_MILLIS).setValue(300);
    assertEquals("pi start-up: no task JVM started; counting took 0.15 s per map",
        PiRunReport.startUp(counters));
  }
}

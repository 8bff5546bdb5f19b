package org.fawnpack.jobs.pi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.hadoop.conf.Configuration;
import org.fawnpack.conf.InvalidConfigValueException;
import org.junit.jupiter.api.Test;

/**
 * What the planner reads from a job's configuration, and what it writes in the local job
 * runner. (On YARN it asks a ResourceManager; PiJobTest and ProfileClusterTest cover that.)
 */
class PiPlannerTest {

  @Test
  void settings_nothingSet_noLabelsAndNoUserChoice() {
    PiPlacement.Settings s = PiPlanner.settings(new Configuration(false), 4, 10);
    assertNull(s.userUber());
    assertEquals("", s.amLabel());
    assertEquals("", s.mapLabel());
    assertEquals(PiPlanner.DEFAULT_MAX_POINTS, s.maxPoints());
    assertEquals(9, s.uberMaxMaps());
    assertEquals(0, s.userMapVcores());
  }

  @Test
  void settings_amLabel_isTheAmsOnly() {
    Configuration conf = new Configuration(false);
    conf.set("mapreduce.job.am.node-label-expression", " master ");
    PiPlacement.Settings s = PiPlanner.settings(conf, 4, 10);
    assertEquals("master", s.amLabel());
    assertEquals("", s.mapLabel());
  }

  @Test
  void settings_jobLabel_appliesToAmAndMapsUnlessTheirOwnIsSet() {
    Configuration conf = new Configuration(false);
    conf.set("mapreduce.job.node-label-expression", "wimpy");
    conf.set("mapreduce.job.am.node-label-expression", "  ");
    PiPlacement.Settings s = PiPlanner.settings(conf, 4, 10);
    assertEquals("wimpy", s.amLabel());
    assertEquals("wimpy", s.mapLabel());
    conf.set("mapreduce.map.node-label-expression", "edison");
    assertEquals("edison", PiPlanner.settings(conf, 4, 10).mapLabel());
  }

  @Test
  void settings_userUberMode_readBothWays() {
    Configuration conf = new Configuration(false);
    conf.set("mapreduce.job.ubertask.enable", "false");
    assertEquals(Boolean.FALSE, PiPlanner.settings(conf, 4, 10).userUber());
    conf.set("mapreduce.job.ubertask.enable", "true");
    assertEquals(Boolean.TRUE, PiPlanner.settings(conf, 4, 10).userUber());
  }

  @Test
  void settings_negativeLimit_namesTheKey() {
    Configuration conf = new Configuration(false);
    conf.setLong(PiPlanner.MAX_POINTS, -1);
    InvalidConfigValueException e = assertThrows(InvalidConfigValueException.class,
        () -> PiPlanner.settings(conf, 4, 10));
    assertEquals(PiPlanner.MAX_POINTS, e.key());
  }

  @Test
  void apply_localJobRunner_noUberAndAtMostOneTaskPerProcessor() throws Exception {
    Configuration conf = new Configuration(false);
    conf.set("mapreduce.framework.name", "local");
    conf.set("fawn.input.combine.vcores", "3");
    PiPlacement p = PiPlanner.apply(conf, 5, 10);
    assertFalse(p.uber());
    assertEquals(3, p.tasks());
    assertEquals("false", conf.get("mapreduce.job.ubertask.enable"));
    assertEquals(3, conf.getInt(PiInputFormat.TASKS, 0));
    assertEquals(1, conf.getInt("mapreduce.map.cpu.vcores", 0));
  }

  @Test
  void apply_userUberMode_leftAsTheUserSetIt() throws Exception {
    Configuration conf = new Configuration(false);
    conf.set("mapreduce.framework.name", "local");
    conf.set("mapreduce.job.ubertask.enable", "true");
    conf.set("fawn.input.combine.vcores", "2");
    PiPlanner.apply(conf, 2, 10);
    assertTrue(conf.getBoolean("mapreduce.job.ubertask.enable", false));
  }
}

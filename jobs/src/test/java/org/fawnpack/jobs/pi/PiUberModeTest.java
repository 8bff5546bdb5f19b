package org.fawnpack.jobs.pi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.apache.hadoop.conf.Configuration;
import org.fawnpack.input.InvalidConfigException;
import org.junit.jupiter.api.Test;

/**
 * When pi stays a normal job. (The uber path asks a ResourceManager for its nodes; PiJobTest
 * covers it on a mini cluster.)
 */
class PiUberModeTest {

  private static Configuration yarnConf() {
    Configuration conf = new Configuration(false);
    conf.set("mapreduce.framework.name", "yarn");
    return conf;
  }

  @Test
  void applyIfSmall_localJobRunner_staysNormal() throws Exception {
    Configuration conf = new Configuration(false);
    conf.set("mapreduce.framework.name", "local");
    assertEquals(0, PiUberMode.applyIfSmall(conf, 2, 10));
    assertNull(conf.get("mapreduce.job.ubertask.enable"));
  }

  @Test
  void applyIfSmall_userSetUberMode_leftToTheUser() throws Exception {
    Configuration conf = yarnConf();
    conf.set("mapreduce.job.ubertask.enable", "false");
    assertEquals(0, PiUberMode.applyIfSmall(conf, 2, 10));
    assertEquals("false", conf.get("mapreduce.job.ubertask.enable"));
  }

  @Test
  void applyIfSmall_moreMapsThanUberMaxMaps_staysNormal() throws Exception {
    assertEquals(0, PiUberMode.applyIfSmall(yarnConf(), 10, 10));
  }

  @Test
  void applyIfSmall_morePointsThanTheLimit_staysNormal() throws Exception {
    Configuration conf = yarnConf();
    conf.setLong(PiUberMode.MAX_POINTS, 1000);
    assertEquals(0, PiUberMode.applyIfSmall(conf, 4, 251));
    assertNull(conf.get("mapreduce.job.ubertask.enable"));
  }

  @Test
  void applyIfSmall_negativeLimit_namesTheKey() {
    Configuration conf = yarnConf();
    conf.setLong(PiUberMode.MAX_POINTS, -1);
    InvalidConfigException e = assertThrows(InvalidConfigException.class,
        () -> PiUberMode.applyIfSmall(conf, 4, 10));
    assertEquals(PiUberMode.MAX_POINTS, e.key());
  }
}

package org.fawnpack.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.hadoop.conf.Configuration;
import org.fawnpack.conf.InvalidConfigValueException;
import org.junit.jupiter.api.Test;

/** How many reducers a count job asks for: the user's, else one per vcore for tasks. */
class CountReducersTest {

  @Test
  void unset_onePerVcoreTheJobSizesItselfBy() throws Exception {
    Configuration conf = new Configuration();
    conf.set("fawn.input.combine.vcores", "70"); // seed 003: 35 two-core Edisons
    assertEquals(70, FileJobTool.countReducers(conf));
  }

  @Test
  void localRunner_unset_thisMachinesProcessors() throws Exception {
    assertEquals(Runtime.getRuntime().availableProcessors(),
        FileJobTool.countReducers(new Configuration()));
  }

  @Test
  void userSet_wins() throws Exception {
    Configuration conf = new Configuration();
    conf.set("fawn.input.combine.vcores", "70");
    conf.set("mapreduce.job.reduces", "1");
    assertEquals(1, FileJobTool.countReducers(conf));
  }

  @Test
  void noneOrNotANumber_refusedNamingTheKey() {
    for (String bad : new String[] {"0", "-3", "two"}) {
      Configuration conf = new Configuration();
      conf.set("mapreduce.job.reduces", bad);
      InvalidConfigValueException e = assertThrows(InvalidConfigValueException.class,
          () -> FileJobTool.countReducers(conf));
      assertEquals("mapreduce.job.reduces", e.key());
      assertTrue(e.getMessage().contains(bad), e.getMessage());
    }
  }
}

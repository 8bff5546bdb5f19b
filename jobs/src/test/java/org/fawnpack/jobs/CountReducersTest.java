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
  void perVcore_reducersStartOnceEveryMapIsDone_unlessTheUserChose() throws Exception {
    Configuration conf = new Configuration();
    conf.set("fawn.input.combine.vcores", "8");
    org.apache.hadoop.mapreduce.Job job = org.apache.hadoop.mapreduce.Job.getInstance(conf);
    FileJobTool.setCountReducers(job);
    assertEquals(8, job.getNumReduceTasks());
    assertEquals(1.0f, job.getConfiguration().getFloat(
        "mapreduce.job.reduce.slowstart.completedmaps", -1), 0);

    Configuration chosen = new Configuration();
    chosen.set("fawn.input.combine.vcores", "8");
    chosen.set("mapreduce.job.reduce.slowstart.completedmaps", "0.5");
    job = org.apache.hadoop.mapreduce.Job.getInstance(chosen);
    FileJobTool.setCountReducers(job);
    assertEquals(0.5f, job.getConfiguration().getFloat(
        "mapreduce.job.reduce.slowstart.completedmaps", -1), 0);

    Configuration oneReducer = new Configuration();
    oneReducer.set("mapreduce.job.reduces", "1");
    job = org.apache.hadoop.mapreduce.Job.getInstance(oneReducer);
    FileJobTool.setCountReducers(job);
    assertEquals(1, job.getNumReduceTasks());
    assertEquals(0.05f, job.getConfiguration().getFloat(
        "mapreduce.job.reduce.slowstart.completedmaps", -1), 0, "Hadoop's default");
  }

  @Test
  void zero_mapOnly_asTheUserAsked() throws Exception {
    Configuration conf = new Configuration();
    conf.set("mapreduce.job.reduces", "0");
    assertEquals(0, FileJobTool.countReducers(conf));
  }

  @Test
  void negativeOrNotANumber_refusedNamingTheKey() {
    for (String bad : new String[] {"-3", "two"}) {
      Configuration conf = new Configuration();
      conf.set("mapreduce.job.reduces", bad);
      InvalidConfigValueException e = assertThrows(InvalidConfigValueException.class,
          () -> FileJobTool.countReducers(conf));
      assertEquals("mapreduce.job.reduces", e.key());
      assertTrue(e.getMessage().contains(bad), e.getMessage());
    }
  }
}

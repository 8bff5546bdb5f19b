package org.fawnpack.jobs.pi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.fawnpack.jobs.RangeSplit;
import org.junit.jupiter.api.Test;

/** The points 1 .. maps x samples, cut into the planned number of tasks. */
class PiInputFormatTest {

  private static List<InputSplit> splits(int maps, long samples, Integer tasks) throws Exception {
    Configuration conf = new Configuration(false);
    conf.setInt(PiInputFormat.MAPS, maps);
    conf.setLong(PiInputFormat.SAMPLES_PER_MAP, samples);
    if (tasks != null) {
      conf.setInt(PiInputFormat.TASKS, tasks);
    }
    return new PiInputFormat().getSplits(Job.getInstance(conf));
  }

  @Test
  void getSplits_tasksUnset_oneSplitPerMapAsTheStockExample() throws Exception {
    List<InputSplit> splits = splits(3, 10, null);
    assertEquals(3, splits.size());
    for (int i = 0; i < 3; i++) {
      RangeSplit s = (RangeSplit) splits.get(i);
      assertEquals(i * 10L + 1, s.first());
      assertEquals(10, s.count());
    }
  }

  @Test
  void getSplits_fewerTasks_contiguousNearEqualCoverOfAllPoints() throws Exception {
    List<InputSplit> splits = splits(8, 7, 3); // 56 points: 19, 19, 18
    long next = 1;
    for (InputSplit split : splits) {
      RangeSplit s = (RangeSplit) split;
      assertEquals(next, s.first());
      next += s.count();
    }
    assertEquals(57, next);
    assertEquals(19, ((RangeSplit) splits.get(0)).count());
    assertEquals(18, ((RangeSplit) splits.get(2)).count());
  }

  @Test
  void getSplits_moreTasksThanMaps_rejected() {
    assertThrows(IllegalStateException.class, () -> splits(2, 10, 3));
  }
}

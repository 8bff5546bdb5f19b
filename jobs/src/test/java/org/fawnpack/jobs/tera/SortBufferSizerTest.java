package org.fawnpack.jobs.tera;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class SortBufferSizerTest {

  private static Configuration conf(String javaOpts, int sortMb) {
    Configuration conf = new Configuration(false);
    if (javaOpts != null) {
      conf.set("mapreduce.map.java.opts", javaOpts);
    }
    conf.setInt("mapreduce.task.io.sort.mb", sortMb);
    return conf;
  }

  @Test
  void mapHeapMb_fromXmxOrContainerSize() {
    assertEquals(300, SortBufferSizer.mapHeapMb(conf("-Xmx300m -XX:+UseSerialGC", 64)));
    assertEquals(2048, SortBufferSizer.mapHeapMb(conf("-Xmx1g -Xmx2G", 64)), "the last wins");
    Configuration noOpts = conf(null, 64);
    noOpts.setInt("mapreduce.map.memory.mb", 500);
    assertEquals(400, SortBufferSizer.mapHeapMb(noOpts));
  }

  @Test
  void size_raisesTheBufferToHoldTheMapOutput_withinTheHeapShare() {
    // 1,000,000 records x 116 bytes / 0.9 = 123 MiB: fits in 0.6 x 300 MB.
    Configuration c = conf("-Xmx300m", 64);
    SortBufferSizer.size(c, 1_000_000);
    assertEquals(124, c.getInt("mapreduce.task.io.sort.mb", 0));
    assertEquals(0.9f, c.getFloat("mapreduce.map.sort.spill.percent", 0));

    Configuration capped = conf("-Xmx300m", 64);
    SortBufferSizer.size(capped, 5_000_000);
    assertEquals(180, capped.getInt("mapreduce.task.io.sort.mb", 0));
  }

  @Test
  void size_neverLowers_andCanBeTurnedOff() {
    Configuration big = conf("-Xmx2g", 500);
    SortBufferSizer.size(big, 1000);
    assertEquals(500, big.getInt("mapreduce.task.io.sort.mb", 0));

    Configuration off = conf("-Xmx300m", 64);
    off.setBoolean(TeraSortConfig.SIZE_SORT_BUFFER.name(), false);
    SortBufferSizer.size(off, 1_000_000);
    assertEquals(64, off.getInt("mapreduce.task.io.sort.mb", 0));
  }
}

package org.fawnpack.energy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.lib.output.LazyOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.NullOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.SequenceFileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.junit.jupiter.api.Test;

class EnergyMeteringTest {

  private static Job job() throws IOException {
    return Job.getInstance(new Configuration(false));
  }

  private static Class<?> delegate(Job job) {
    return job.getConfiguration().getClass(EnergyMetering.DELEGATE_KEY, null);
  }

  private static Class<?> outputFormat(Job job) {
    return job.getConfiguration().getClass(MRJobConfig.OUTPUT_FORMAT_CLASS_ATTR, null);
  }

  @Test
  void enable_jobWithOutputFormat_keptBehindWrapper() throws Exception {
    Job job = job();
    job.setOutputFormatClass(SequenceFileOutputFormat.class);
    EnergyMetering.enable(job);

    assertEquals(MeteringOutputFormat.class, outputFormat(job));
    assertEquals(MeteringOutputFormat.class, job.getOutputFormatClass());
    assertEquals(SequenceFileOutputFormat.class, delegate(job));
    assertTrue(job.getConfiguration().getBoolean(EnergyMetering.ENABLED_KEY, false));
    assertTrue(EnergyMetering.isEnabled(job.getConfiguration()));
  }

  @Test
  void enable_twice_wrapsOnce() throws Exception {
    Job job = job();
    job.setOutputFormatClass(NullOutputFormat.class);
    EnergyMetering.enable(job);
    EnergyMetering.enable(job);

    assertEquals(MeteringOutputFormat.class, outputFormat(job));
    assertEquals(NullOutputFormat.class, delegate(job));
  }

  @Test
  void enable_noOutputFormat_textOutputFormatBehindWrapper() throws Exception {
    Job job = job();
    assertNull(outputFormat(job));
    EnergyMetering.enable(job);

    assertEquals(MeteringOutputFormat.class, outputFormat(job));
    assertEquals(TextOutputFormat.class, delegate(job));
  }

  @Test
  void enable_laterOutputFormatSet_wrapsNewOne() throws Exception {
    Job job = job();
    EnergyMetering.enable(job);
    job.setOutputFormatClass(LazyOutputFormat.class);
    assertFalse(EnergyMetering.isEnabled(job.getConfiguration()));

    EnergyMetering.enable(job);
    assertTrue(EnergyMetering.isEnabled(job.getConfiguration()));
    assertEquals(LazyOutputFormat.class, delegate(job));
  }

  @Test
  void isEnabled_onlyWhenWrapperIsOutputFormat() throws Exception {
    assertFalse(EnergyMetering.isEnabled(new Configuration(false)));
    Job job = job();
    job.setOutputFormatClass(TextOutputFormat.class);
    assertFalse(EnergyMetering.isEnabled(job.getConfiguration()));
    // the switch alone does not meter a job
    job.getConfiguration().setBoolean(EnergyMetering.ENABLED_KEY, true);
    assertFalse(EnergyMetering.isEnabled(job.getConfiguration()));
  }

  @Test
  void enableUnlessDisabled_switch_honoured() throws Exception {
    Job off = job();
    off.setOutputFormatClass(SequenceFileOutputFormat.class);
    off.getConfiguration().set(EnergyMetering.ENABLED_KEY, "false");
    assertFalse(EnergyMetering.enableUnlessDisabled(off, true));
    assertEquals(SequenceFileOutputFormat.class, outputFormat(off));
    assertNull(delegate(off));
    assertFalse(EnergyMetering.isEnabled(off.getConfiguration()));

    Job unsetDefaultOn = job();
    assertTrue(EnergyMetering.enableUnlessDisabled(unsetDefaultOn, true));
    assertTrue(EnergyMetering.isEnabled(unsetDefaultOn.getConfiguration()));
    assertEquals(TextOutputFormat.class, delegate(unsetDefaultOn));

    Job unsetDefaultOff = job();
    assertFalse(EnergyMetering.enableUnlessDisabled(unsetDefaultOff, false));
    assertFalse(EnergyMetering.isEnabled(unsetDefaultOff.getConfiguration()));
    assertNull(outputFormat(unsetDefaultOff));

    Job on = job();
    on.getConfiguration().set(EnergyMetering.ENABLED_KEY, "true");
    assertTrue(EnergyMetering.enableUnlessDisabled(on, false));
    assertTrue(EnergyMetering.isEnabled(on.getConfiguration()));
  }
}

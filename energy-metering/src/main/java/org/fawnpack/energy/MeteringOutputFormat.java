package org.fawnpack.energy;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.OutputFormat;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * The job's own output format, unchanged, except that its committer is wrapped in a
 * {@link MeteringOutputCommitter}. Set by {@link EnergyMetering#enable}; the real format's class
 * is kept under {@value EnergyMetering#DELEGATE_KEY}.
 */
public class MeteringOutputFormat<K, V> extends OutputFormat<K, V> {
  private OutputFormat<K, V> delegate;

  @SuppressWarnings("unchecked")
  private synchronized OutputFormat<K, V> delegate(JobContext context) {
    if (delegate == null) {
      Configuration conf = context.getConfiguration();
      Class<?> type;
      try {
        type = conf.getClass(EnergyMetering.DELEGATE_KEY, null);
      } catch (RuntimeException e) { // ClassNotFoundException: not on the task's classpath
        throw new IllegalStateException(EnergyMetering.DELEGATE_KEY + " names the job's real "
            + "OutputFormat, but " + conf.get(EnergyMetering.DELEGATE_KEY) + " cannot be loaded: "
            + e.getMessage(), e);
      }
      if (type == null || !OutputFormat.class.isAssignableFrom(type)
          || type == MeteringOutputFormat.class) {
        throw new IllegalStateException(EnergyMetering.DELEGATE_KEY + " must name the job's real "
            + "OutputFormat (set by EnergyMetering.enable), was " + conf.get(EnergyMetering.DELEGATE_KEY));
      }
      delegate = (OutputFormat<K, V>) ReflectionUtils.newInstance(type, conf);
    }
    return delegate;
  }

  @Override
  public RecordWriter<K, V> getRecordWriter(TaskAttemptContext context)
      throws IOException, InterruptedException {
    return delegate(context).getRecordWriter(context);
  }

  @Override
  public void checkOutputSpecs(JobContext context) throws IOException, InterruptedException {
    delegate(context).checkOutputSpecs(context);
  }

  @Override
  public OutputCommitter getOutputCommitter(TaskAttemptContext context)
      throws IOException, InterruptedException {
    return new MeteringOutputCommitter(delegate(context).getOutputCommitter(context), context);
  }
}

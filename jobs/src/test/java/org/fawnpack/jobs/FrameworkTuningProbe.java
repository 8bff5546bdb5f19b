package org.fawnpack.jobs;

import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;

/**
 * Run in a fresh JVM by {@link FrameworkTuningTest}: builds (never runs) the wordcount2 or
 * logcount2 job as {@code hadoop jar} would, with nothing of MapReduce loaded beforehand, and
 * prints the tuned keys of the job's configuration.
 *
 * <p>Arguments: job name, input path, output path.
 */
public final class FrameworkTuningProbe {

  static final String PREFIX = "PROBE ";

  private FrameworkTuningProbe() {}

  public static void main(String[] args) throws Exception {
    FileJobTool tool = args[0].equals("logcount2") ? new LogCount2() : new WordCount2();
    tool.setConf(new Configuration());
    Job job = tool.createJob(List.of(new Path(args[1])), new Path(args[2]));
    for (String key : FrameworkTuning.SETTINGS.keySet()) {
      System.out.println(PREFIX + key + "=" + job.getConfiguration().get(key));
    }
  }
}

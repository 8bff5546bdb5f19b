package org.fawnpack.jobs;

import java.io.IOException;
import java.io.PrintStream;
import java.util.Locale;
import org.apache.hadoop.mapreduce.Job;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Submits a job and prints one progress line whenever the map or reduce percentage moves, like
 * {@code Job.waitForCompletion(true)} but without the full counter dump (the JobHistory server
 * keeps the counters; {@link JobKeys#PRINT_COUNTERS} prints them here too).
 */
final class JobMonitor {


  private static final Logger LOG = LoggerFactory.getLogger(JobMonitor.class);

  private final Job job;
  private final PrintStream out;
  private final String name;

  JobMonitor(Job job, PrintStream out, String name) {
    this.job = job;
    this.out = out;
    this.name = name;
  }

  /** Submits, waits, and returns whether the job succeeded. */
  boolean waitForCompletion() throws IOException, InterruptedException, ClassNotFoundException {
    job.submit();
    out.printf("%s: submitted %s%n", name, job.getJobID());
    String tracking = job.getTrackingURL();
    LOG.info("Tracking URL of {}: {}", job.getJobID(), tracking);
    int pollMillis = Job.getCompletionPollInterval(job.getConfiguration());
    int lastMap = -1;
    int lastReduce = -1;
    while (!job.isComplete()) {
      int map = percent(job.mapProgress());
      int reduce = percent(job.reduceProgress());
      if (map != lastMap || reduce != lastReduce) {
        out.printf(Locale.ROOT, "%s: map %3d%% reduce %3d%%%n", name, map, reduce);
        lastMap = map;
        lastReduce = reduce;
      }
      Thread.sleep(Math.min(pollMillis, 1000));
    }
    boolean ok = job.isSuccessful();
    if (JobKeys.PRINT_COUNTERS.read(job.getConfiguration()::get)) {
      out.println(job.getCounters());
    }
    return ok;
  }

  private static int percent(float progress) {
    return Math.round(progress * 100);
  }
}

package org.fawnpack.benchmarks;

import java.io.IOException;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Cluster;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.TaskReport;
import org.apache.hadoop.mapreduce.TaskType;

/**
 * Where a finished job's wall time went, from the times the ApplicationMaster reports (the
 * JobHistory server's once the job is done): submission (the client's clock) → job start in
 * the AM (its container allocated and JVM up) → first and last map launch → last map end →
 * job end (commit done) → the client sees it. One line, seconds from submission.
 */
final class JobTimeline {

  private JobTimeline() {}

  /** The timeline of the most recently started job whose name starts with {@code namePrefix}. */
  static String latest(Configuration conf, String namePrefix, long submittedMillis,
      long returnedMillis) throws IOException, InterruptedException {
    Cluster cluster = new Cluster(conf);
    try {
      JobStatus status = Arrays.stream(cluster.getAllJobStatuses())
          .filter(s -> s.getJobName() != null && s.getJobName().startsWith(namePrefix))
          .max(Comparator.comparingLong(JobStatus::getStartTime))
          .orElseThrow(() -> new IOException("no job named " + namePrefix + "* on the cluster"));
      Job job = cluster.getJob(status.getJobID());
      return describe(job, submittedMillis, returnedMillis);
    } finally {
      cluster.close();
    }
  }

  static String describe(Job job, long submittedMillis, long returnedMillis)
      throws IOException, InterruptedException {
    TaskReport[] maps = job.getTaskReports(TaskType.MAP);
    long firstLaunch = Long.MAX_VALUE;
    long lastLaunch = 0;
    long lastEnd = 0;
    double[] runs = new double[maps.length];
    for (int i = 0; i < maps.length; i++) {
      firstLaunch = Math.min(firstLaunch, maps[i].getStartTime());
      lastLaunch = Math.max(lastLaunch, maps[i].getStartTime());
      lastEnd = Math.max(lastEnd, maps[i].getFinishTime());
      runs[i] = (maps[i].getFinishTime() - maps[i].getStartTime()) / 1000.0;
    }
    Arrays.sort(runs);
    JobStatus status = job.getStatus();
    return String.format(Locale.ROOT, "job start %+.1f s, maps launched %+.1f .. %+.1f s, last map"
        + " end %+.1f s (%d maps, launch to end %.1f .. %.1f s, median %.1f s), job end %+.1f s,"
        + " client %+.1f s", sec(status.getStartTime(), submittedMillis),
        sec(firstLaunch, submittedMillis), sec(lastLaunch, submittedMillis),
        sec(lastEnd, submittedMillis), maps.length, runs.length == 0 ? 0 : runs[0],
        runs.length == 0 ? 0 : runs[runs.length - 1], runs.length == 0 ? 0 : runs[runs.length / 2],
        sec(status.getFinishTime(), submittedMillis), sec(returnedMillis, submittedMillis));
  }

  private static double sec(long millis, long origin) {
    return (millis - origin) / 1000.0;
  }
}

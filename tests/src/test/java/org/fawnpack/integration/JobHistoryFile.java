package org.fawnpack.integration;

import java.io.IOException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryParser;

/**
 * A finished job's history file ({@code <jobId>-....jhist}, in the JobHistory server's done or
 * intermediate directory) read with Hadoop's own parser: an oracle for what the report reads
 * from the server's REST API, from the events the ApplicationMaster wrote.
 */
final class JobHistoryFile {

  /** The shuffle as the file has it: first reduce attempt start, last successful shuffle end. */
  record Shuffle(long firstReduceStart, long lastShuffleFinish, long lastReduceFinish) {}

  private JobHistoryFile() {}

  static Shuffle shuffle(FileSystem fs, String jobId) throws IOException {
    JobHistoryParser.JobInfo job = new JobHistoryParser(fs, find(fs, jobId)).parse();
    long first = Long.MAX_VALUE;
    long lastShuffle = Long.MIN_VALUE;
    long lastFinish = Long.MIN_VALUE;
    for (JobHistoryParser.TaskInfo task : job.getAllTasks().values()) {
      if (task.getTaskType() != TaskType.REDUCE) {
        continue;
      }
      lastFinish = Math.max(lastFinish, task.getFinishTime());
      for (JobHistoryParser.TaskAttemptInfo a : task.getAllTaskAttempts().values()) {
        first = Math.min(first, a.getStartTime());
        if ("SUCCEEDED".equals(a.getTaskStatus())) {
          lastShuffle = Math.max(lastShuffle, a.getShuffleFinishTime());
        }
      }
    }
    return new Shuffle(first, lastShuffle, lastFinish);
  }

  /** The done file, searched for over the whole file system (a test cluster's is small). */
  private static Path find(FileSystem fs, String jobId) throws IOException {
    RemoteIterator<LocatedFileStatus> files = fs.listFiles(new Path("/"), true);
    while (files.hasNext()) {
      Path path = files.next().getPath();
      if (path.getName().startsWith(jobId + "-") && path.getName().endsWith(".jhist")) {
        return path;
      }
    }
    throw new IOException("no " + jobId + "-*.jhist on " + fs.getUri());
  }
}

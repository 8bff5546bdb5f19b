package org.fawnpack.energy.report;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.fawnpack.energy.report.EnergyReportModel.Phase;
import org.fawnpack.energy.report.JobHistoryClient.TaskInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The job's phases as the report draws them, from the JobHistory server's tasks and reduce
 * attempts (epoch ms):
 * <ul>
 *   <li><b>map</b>: the first map task's start to the last map task's finish;
 *   <li><b>shuffle</b>: the first reduce attempt's start (any attempt, failed ones too: each
 *       fetched map output) to the last {@code shuffleFinishTime} of a successful reduce
 *       attempt, when the last reducer had every map output. With the default slow start it
 *       begins while maps still run, so it overlaps the map phase;
 *   <li><b>reduce</b>: from that last shuffle finish to the last reduce task's finish: the
 *       merge and the reduce functions once no reducer waits for map output any more. A
 *       reducer whose shuffle ended early merges and reduces inside the shuffle band: the bands
 *       say what the job as a whole waits on, not what each reducer does.
 * </ul>
 * When the shuffle is not known (no successful reduce attempt with a shuffle finish time, or
 * the attempts could not be read) the reduce band is the whole reduce phase instead, the first
 * reduce task's start to the last one's finish, and {@link #shuffleProblem} says why. A job
 * without reduce tasks has neither band, and no attempt is asked for.
 *
 * @param shuffleProblem why a job with reduce tasks has no shuffle phase; null otherwise
 */
public record JobPhases(Phase map, Phase shuffle, Phase reduce, String shuffleProblem) {
  private static final Logger LOG = LoggerFactory.getLogger(JobPhases.class);

  /** From the tasks alone: the shuffle not known, the reduce band the whole reduce phase. */
  public static JobPhases of(List<TaskInfo> tasks) {
    return new JobPhases(span(tasks, true), null, span(tasks, false), null);
  }

  /** From the tasks and every attempt of the job's reduce tasks. */
  public static JobPhases of(List<TaskInfo> tasks, List<ReduceAttempt> reduceAttempts) {
    Phase map = span(tasks, true);
    Phase reduceTasks = span(tasks, false);
    if (reduceTasks == null) {
      return new JobPhases(map, null, null, null);
    }
    long first = reduceTasks.startMillis();
    long lastShuffle = Long.MIN_VALUE;
    for (ReduceAttempt a : reduceAttempts) {
      if (a.startTime() > 0) {
        first = Math.min(first, a.startTime());
      }
      if (a.succeeded() && a.shuffled()) {
        lastShuffle = Math.max(lastShuffle, a.shuffleFinishTime());
      }
    }
    if (lastShuffle == Long.MIN_VALUE) {
      return new JobPhases(map, null, reduceTasks,
          "no successful reduce attempt has a shuffle finish time");
    }
    long last = reduceTasks.finishMillis();
    return new JobPhases(map, new Phase(first, lastShuffle),
        new Phase(Math.min(lastShuffle, last), last), null);
  }

  /**
   * Asks the server for the attempts of each reduce task that started (one request each). A
   * request that fails leaves the shuffle unknown (a part of the attempts would give a wrong
   * end) rather than failing the report: the rest of it does not depend on them.
   */
  static JobPhases read(JobHistoryClient client, String jobId, List<TaskInfo> tasks) {
    List<ReduceAttempt> attempts = new ArrayList<>();
    for (TaskInfo task : tasks) {
      if (!task.isReduce() || task.startTime() <= 0) {
        continue;
      }
      try {
        attempts.addAll(client.reduceAttempts(jobId, task.id()));
      } catch (IOException | IllegalArgumentException e) {
        // The job was found a moment ago: a 404 here is about the task, not the job.
        String why = e instanceof JobNotFoundException ? "the JobHistory server at "
            + client.address() + " answered HTTP 404" : e.getMessage();
        LOG.warn("{}: no shuffle phase: the attempts of reduce task {} could not be read: {}",
            jobId, task.id(), why);
        JobPhases withoutShuffle = of(tasks);
        return new JobPhases(withoutShuffle.map(), null, withoutShuffle.reduce(),
            "the attempts of " + task.id() + " could not be read: " + why);
      }
    }
    return of(tasks, attempts);
  }

  /** First start to last finish of the job's MAP (or REDUCE) tasks; null if none started. */
  static Phase span(List<TaskInfo> tasks, boolean maps) {
    long first = Long.MAX_VALUE;
    long last = Long.MIN_VALUE;
    for (TaskInfo t : tasks) {
      if ((maps ? t.isMap() : t.isReduce()) && t.startTime() > 0) {
        first = Math.min(first, t.startTime());
        last = Math.max(last, Math.max(t.finishTime(), t.startTime()));
      }
    }
    return first == Long.MAX_VALUE ? null : new Phase(first, last);
  }
}

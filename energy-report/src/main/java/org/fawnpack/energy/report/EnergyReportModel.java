package org.fawnpack.energy.report;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.fawnpack.energy.EnergyCounter;
import org.fawnpack.energy.JobEnergySummary;
import org.fawnpack.energy.report.JobHistoryClient.CounterValues;
import org.fawnpack.energy.report.JobHistoryClient.JobInfo;
import org.fawnpack.energy.report.JobHistoryClient.TaskInfo;

/**
 * A finished job's energy: its counters (what its tasks' containers were attributed) joined with
 * the collector's history files (what the nodes drew while it ran, and what the whole application,
 * ApplicationMaster included, was attributed). Every figure that cannot be computed is NaN (or -1
 * for a count), which the reports print as "n/a".
 *
 * <p>The job's window is [JHS startTime, JHS finishTime]; a history sample belongs to it when the
 * sample's end time lies in it (so each edge is exact to within one sampling interval).
 */
public final class EnergyReportModel {
  static final String ENERGY_GROUP = EnergyCounter.class.getName();
  static final String TASK_GROUP = "org.apache.hadoop.mapreduce.TaskCounter";
  static final String FILE_INPUT_GROUP =
      "org.apache.hadoop.mapreduce.lib.input.FileInputFormatCounter";
  static final String FAWN_INPUT_GROUP = "org.fawnpack.input.FawnInputCounter";

  /** A phase of the job, from its start to its finish (epoch ms; {@link JobPhases}). */
  public record Phase(long startMillis, long finishMillis) {
  }

  /** One history file's figures over the job's window. */
  public record NodeFigures(NodeHistory history, long samplesInWindow, long gapSamplesInWindow,
      long nodeMicrojoules, long coveredMillis, long appMicrojoules, long amMicrojoules) {

    public double nodeJoules() {
      return nodeMicrojoules / 1e6;
    }

    /** The application's energy on this node over its whole life here (all rows). */
    public double appJoules() {
      return appMicrojoules / 1e6;
    }

    /** Node energy in the window / the window's seconds; NaN if the window is unknown. */
    public double averageWatts(double seconds) {
      return seconds > 0 ? nodeJoules() / seconds : Double.NaN;
    }

    public double coveredSeconds() {
      return coveredMillis / 1000.0;
    }
  }

  private final JobInfo job;
  private final CounterValues counters;
  private final String applicationId;
  private final JobEnergySummary summary;
  private final long tasksCompleted;
  private final JobPhases phases;
  private final String historyLocation;
  private final boolean historyFound;
  private final String historyProblem;
  private final List<NodeFigures> nodes;
  private final ClusterFigures cluster;

  private EnergyReportModel(JobInfo job, CounterValues counters, String applicationId,
      JobEnergySummary summary, long tasksCompleted, JobPhases phases, String historyLocation,
      boolean historyFound, String historyProblem,
      List<NodeFigures> nodes, ClusterFigures cluster) {
    this.cluster = cluster;
    this.job = job;
    this.counters = counters;
    this.applicationId = applicationId;
    this.summary = summary;
    this.tasksCompleted = tasksCompleted;
    this.phases = phases;
    this.historyLocation = historyLocation;
    this.historyFound = historyFound;
    this.historyProblem = historyProblem;
    this.nodes = Collections.unmodifiableList(nodes);
  }

  /**
   * Joins the pieces.
   *
   * @param historyLocation the application's history directory, as it should be named to a user
   * @param histories the parsed files, or null when the directory does not exist
   */
  public static EnergyReportModel build(JobInfo job, CounterValues counters, List<TaskInfo> tasks,
      String historyLocation, List<NodeHistory> histories) {
    return build(job, counters, tasks, historyLocation, histories, null);
  }

  /**
   * As {@link #build(JobInfo, CounterValues, List, String, List)}, for history files that could
   * not be read: {@code historyProblem} says why (the file and line of a damaged record).
   */
  public static EnergyReportModel build(JobInfo job, CounterValues counters, List<TaskInfo> tasks,
      String historyLocation, List<NodeHistory> histories, String historyProblem) {
    return build(job, counters, JobPhases.of(tasks), historyLocation, histories, historyProblem);
  }

  /** As above, with the phases read beside the tasks (the shuffle from the reduce attempts). */
  public static EnergyReportModel build(JobInfo job, CounterValues counters, JobPhases phases,
      String historyLocation, List<NodeHistory> histories, String historyProblem) {
    long wall = wallMillis(job);
    long fileBytes = counters.get(FILE_INPUT_GROUP, "BYTES_READ");
    long fawnBytes = counters.get(FAWN_INPUT_GROUP, "BYTES_READ");
    JobEnergySummary summary = new JobEnergySummary(
        counters.get(ENERGY_GROUP, EnergyCounter.ENERGY_MILLIJOULES.name()),
        counters.get(ENERGY_GROUP, EnergyCounter.IDLE_SHARE_MILLIJOULES.name()),
        counters.get(ENERGY_GROUP, EnergyCounter.SAMPLES.name()),
        counters.get(ENERGY_GROUP, EnergyCounter.METER_GAPS.name()),
        counters.get(ENERGY_GROUP, EnergyCounter.TASKS_METERED.name()),
        counters.get(ENERGY_GROUP, EnergyCounter.TASKS_UNMETERED.name()),
        counters.get(ENERGY_GROUP, EnergyCounter.TASKS_ESTIMATED.name()),
        counters.get(TASK_GROUP, "MAP_INPUT_RECORDS"),
        Math.max(fileBytes, fawnBytes),
        Math.max(wall, 0));
    long completed = job.mapsCompleted() >= 0 && job.reducesCompleted() >= 0
        ? job.mapsCompleted() + job.reducesCompleted() : -1;
    long windowStart = job.startTime() > 0 ? job.startTime() : Long.MIN_VALUE;
    long windowEnd = wall >= 0 ? job.finishTime() : Long.MAX_VALUE;
    List<NodeFigures> nodes = new ArrayList<>();
    if (histories != null) {
      for (NodeHistory history : histories) {
        nodes.add(figures(history, windowStart, windowEnd));
      }
    }
    return new EnergyReportModel(job, counters, JobHistoryClient.applicationId(job.id()), summary,
        completed, phases, historyLocation, histories != null, historyProblem, nodes,
        ClusterFigures.NOT_READ);
  }

  /** This report with the cluster's figures (the nodes' own histories over the job's span). */
  public EnergyReportModel withCluster(ClusterFigures figures) {
    return new EnergyReportModel(job, counters, applicationId, summary, tasksCompleted,
        phases, historyLocation, historyFound, historyProblem, nodes, figures);
  }

  /** The whole cluster's energy over the job's span, or why it is not known. */
  public ClusterFigures cluster() {
    return cluster;
  }

  /** Work in the job's own unit per joule of the whole cluster; NaN without it. */
  public double clusterWorkPerJoule() {
    ClusterEnergy energy = cluster.energy();
    return energy != null && energy.joules() > 0 ? work().perJoule(energy.joules())
        : Double.NaN;
  }

  static NodeFigures figures(NodeHistory history, long windowStart, long windowEnd) {
    List<NodeHistory.Sample> samples = new ArrayList<>(history.samples());
    samples.sort(Comparator.comparingLong(NodeHistory.Sample::endMillis));
    long inWindow = 0;
    long gaps = 0;
    long nodeUj = 0;
    long covered = 0;
    long appUj = 0;
    long previousEnd = Long.MIN_VALUE;
    for (NodeHistory.Sample s : samples) {
      appUj += s.appMicrojoules();
      long end = s.endMillis();
      if (end >= windowStart && end <= windowEnd) {
        inWindow++;
        if (s.gap()) {
          gaps++;
        }
        nodeUj += s.nodeMicrojoules();
        long begin = previousEnd != Long.MIN_VALUE ? previousEnd
            : history.intervalMillis() > 0 ? end - history.intervalMillis() : end;
        covered += Math.max(0, end - Math.max(begin, windowStart));
      }
      previousEnd = end;
    }
    long amUj = 0;
    for (NodeHistory.Container c : history.containers()) {
      if (c.isApplicationMaster()) {
        amUj += c.energyMicrojoules();
      }
    }
    return new NodeFigures(history, inWindow, gaps, nodeUj, covered, appUj, amUj);
  }

  private static long wallMillis(JobInfo job) {
    return job.startTime() > 0 && job.finishTime() >= job.startTime()
        ? job.finishTime() - job.startTime() : -1;
  }

  // ---- the job ----

  /** The job's counters as the JobHistory server gave them. */
  public CounterValues counters() {
    return counters;
  }

  public JobInfo job() {
    return job;
  }

  public String jobId() {
    return job.id();
  }

  public String applicationId() {
    return applicationId;
  }

  /** The figures from the job's counters (the same as the job printed at its end). */
  public JobEnergySummary summary() {
    return summary;
  }

  /** finish − start in ms, or -1 if unknown. */
  public long wallMillis() {
    return wallMillis(job);
  }

  public double seconds() {
    long wall = wallMillis();
    return wall >= 0 ? wall / 1000.0 : Double.NaN;
  }

  /** The map, shuffle and reduce phases. */
  public JobPhases phases() {
    return phases;
  }

  /** Null if the job had no map tasks. */
  public Phase mapPhase() {
    return phases.map();
  }

  /** Null if the job had no reduce tasks or the shuffle is not known ({@link JobPhases}). */
  public Phase shufflePhase() {
    return phases.shuffle();
  }

  /** After the shuffle (the whole reduce phase when it is not known); null without reduces. */
  public Phase reducePhase() {
    return phases.reduce();
  }

  // ---- from the counters ----

  /** ENERGY_MILLIJOULES in joules (0 if the job was not metered). */
  public double taskJoules() {
    return summary.joules();
  }

  public double idleJoules() {
    return summary.idleMillijoules() / 1000.0;
  }

  /** Idle share / task energy; NaN without task energy. */
  public double idleShare() {
    return summary.energyMillijoules() > 0
        ? (double) summary.idleMillijoules() / summary.energyMillijoules() : Double.NaN;
  }

  public double recordsPerJoule() {
    return summary.recordsPerJoule();
  }

  /** The job's work in its own unit (pi's points, md5search's MD5s, ...), from its counters. */
  WorkMeasure work() {
    return WorkMeasure.of(counters(), Math.max(0, job().reducesTotal()));
  }

  /** Work in the job's own unit per joule of its tasks; NaN without task energy. */
  public double workPerJoule() {
    return summary.energyMillijoules() > 0 ? work().perJoule(taskJoules()) : Double.NaN;
  }

  public double bytesPerJoule() {
    return summary.bytesPerJoule();
  }

  /** Completed maps + reduces from the JobHistory server, or metered + unmetered if larger. */
  public long tasksAll() {
    return Math.max(tasksCompleted, summary.tasksMetered() + summary.tasksUnmetered());
  }

  /** METER_GAPS / SAMPLES; NaN without samples. */
  public double counterGapShare() {
    return summary.samples() > 0 ? (double) summary.gaps() / summary.samples() : Double.NaN;
  }

  // ---- from the history files ----

  /** The application's history directory. */
  public String historyLocation() {
    return historyLocation;
  }

  /** Whether the application's history directory exists. */
  public boolean historyFound() {
    return historyFound;
  }

  /** Why the history files could not be read (null if they could, or do not exist). */
  public String historyProblem() {
    return historyProblem;
  }

  public boolean hasHistory() {
    return historyFound && !nodes.isEmpty();
  }

  public List<NodeFigures> nodes() {
    return nodes;
  }

  /** Sum over nodes of their energy in the job's window; NaN without history files. */
  public double nodeJoules() {
    return hasHistory() ? nodes.stream().mapToLong(NodeFigures::nodeMicrojoules).sum() / 1e6
        : Double.NaN;
  }

  /** The application's attributed energy (the app column, all rows); NaN without history. */
  public double applicationJoules() {
    return hasHistory() ? nodes.stream().mapToLong(NodeFigures::appMicrojoules).sum() / 1e6
        : Double.NaN;
  }

  /** The ApplicationMaster containers' energy (container records); NaN without history. */
  public double applicationMasterJoules() {
    return hasHistory() ? nodes.stream().mapToLong(NodeFigures::amMicrojoules).sum() / 1e6
        : Double.NaN;
  }

  /** Node energy / the job's seconds: the metered nodes' average power while the job ran. */
  public double averageWatts() {
    double seconds = seconds();
    return hasHistory() && seconds > 0 ? nodeJoules() / seconds : Double.NaN;
  }

  public long historySamples() {
    return nodes.stream().mapToLong(NodeFigures::samplesInWindow).sum();
  }

  public long historyGapSamples() {
    return nodes.stream().mapToLong(NodeFigures::gapSamplesInWindow).sum();
  }

  public double historyGapShare() {
    long samples = historySamples();
    return samples > 0 ? (double) historyGapSamples() / samples : Double.NaN;
  }

  public long containersRecorded() {
    return nodes.stream().mapToLong(n -> n.history().containers().size()).sum();
  }

  // ---- estimation ----

  /** True when any figure came (partly) from a power model rather than a meter. */
  public boolean estimated() {
    return !estimatedReasons().isEmpty();
  }

  /** Why the figures are estimated: one short phrase per cause. */
  public List<String> estimatedReasons() {
    List<String> reasons = new ArrayList<>();
    if (summary.tasksEstimated() > 0) {
      reasons.add(String.format(Locale.ROOT, "%d task(s) with estimated power (TASKS_ESTIMATED)",
          summary.tasksEstimated()));
    }
    for (NodeFigures n : nodes) {
      if (n.history().estimated()) {
        reasons.add("history file " + n.history().file() + " says estimated=true");
      } else if (n.history().containers().stream().anyMatch(NodeHistory.Container::estimated)) {
        reasons.add("history file " + n.history().file() + " has estimated containers");
      }
    }
    return reasons;
  }
}

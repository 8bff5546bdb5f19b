package org.fawnpack.jobs.pi;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Cluster;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.TaskCompletionEvent;
import org.apache.hadoop.yarn.api.records.NodeReport;

/**
 * The lines pi prints after its job: where the maps ran (uber or not, which nodes and their
 * node labels, from the job's task attempts and the ResourceManager's node reports, not from
 * what was planned), so a reader of the energy line knows which machines it describes; and
 * what starting the task JVMs cost.
 */
final class PiRunReport {
  /** Addresses listed per label before the rest are only counted. */
  private static final int LISTED = 6;

  private PiRunReport() {}

  /** "pi ran ... on ..."; the job must be finished. */
  static String whereRan(Job job, Counters counters, Configuration conf)
      throws IOException, InterruptedException {
    boolean uber = counters.findCounter(JobCounter.NUM_UBER_SUBMAPS).getValue() > 0;
    long maps = counters.findCounter(JobCounter.TOTAL_LAUNCHED_MAPS).getValue();
    String how = uber
        ? "its " + maps + " map(s) as an uber job, inside the ApplicationMaster's container"
        : maps + " map task(s), each in a container of its own,";
    if (!MRConfig.YARN_FRAMEWORK_NAME.equals(conf.getTrimmed(MRConfig.FRAMEWORK_NAME, ""))) {
      return "pi ran " + how + " in the local job runner (this JVM)";
    }
    Set<String> nodes = mapNodes(job);
    return "pi ran " + how + " on " + describeNodes(nodes, labelsByNodeId(
        PiPlanner.runningNodes(conf)));
  }

  /**
   * The NodeIds (host:port) of the NodeManagers where map attempts succeeded: the attempts from
   * the task completion events, each attempt's node from the AM or JobHistory server (the
   * events' own address is the shuffle server's, -1 for an uber job's maps).
   */
  static Set<String> mapNodes(Job job) throws IOException, InterruptedException {
    Set<String> nodes = new TreeSet<>();
    Cluster cluster = new Cluster(job.getConfiguration());
    try {
      int from = 0;
      TaskCompletionEvent[] events;
      do {
        events = job.getTaskCompletionEvents(from, 100);
        for (TaskCompletionEvent e : events) {
          if (e.isMapTask() && e.getStatus() == TaskCompletionEvent.Status.SUCCEEDED) {
            nodes.add(cluster.getLogParams(job.getJobID(), e.getTaskAttemptId()).getNodeId());
          }
        }
        from += events.length;
      } while (events.length > 0);
    } finally {
      cluster.close();
    }
    return nodes;
  }

  static Map<String, Set<String>> labelsByNodeId(List<NodeReport> reports) {
    Map<String, Set<String>> labels = new HashMap<>();
    for (NodeReport r : reports) {
      labels.put(r.getNodeId().toString(), r.getNodeLabels() == null ? Set.of()
          : r.getNodeLabels());
    }
    return labels;
  }

  /** "4 nodes without a node label (a:1, b:1, ...)", grouped by label. */
  static String describeNodes(Set<String> nodes, Map<String, Set<String>> labels) {
    if (nodes.isEmpty()) {
      return "no node reported by the job's task attempts";
    }
    Map<String, List<String>> byLabel = new TreeMap<>();
    for (String node : nodes) {
      Set<String> l = labels.get(node);
      String group = l == null ? "nodes the ResourceManager no longer reports (label unknown)"
          : l.isEmpty() ? PiPlacement.where("") : "nodes labelled '" + String.join(",", l) + "'";
      byLabel.computeIfAbsent(group, k -> new ArrayList<>()).add(node);
    }
    List<String> parts = new ArrayList<>();
    byLabel.forEach((group, addresses) -> {
      String listed = String.join(", ", addresses.subList(0, Math.min(LISTED, addresses.size())))
          + (addresses.size() > LISTED ? ", +" + (addresses.size() - LISTED) + " more" : "");
      parts.add(addresses.size() + " " + group.replaceFirst("^nodes", addresses.size() == 1
          ? "node" : "nodes") + " (" + listed + ")");
    });
    return String.join(" and ", parts);
  }

  /** What the task JVMs cost before their maps began, against the counting itself. */
  static String startUp(Counters counters) {
    long jvms = counters.findCounter(PiCounter.TASK_JVMS).getValue();
    long maps = counters.findCounter(JobCounter.TOTAL_LAUNCHED_MAPS).getValue();
    double countSeconds = counters.findCounter(PiCounter.COUNT_MILLIS).getValue() / 1000.0;
    String counting = String.format(Locale.ROOT, "counting took %.2f s per map", maps == 0 ? 0
        : countSeconds / maps);
    if (jvms == 0) {
      return "pi start-up: no task JVM started; " + counting;
    }
    double wall = counters.findCounter(PiCounter.TASK_START_MILLIS).getValue() / 1000.0 / jvms;
    double cpu = counters.findCounter(PiCounter.TASK_START_CPU_MILLIS).getValue() / 1000.0
        / jvms;
    return String.format(Locale.ROOT, "pi start-up: %d task JVM(s), each %.1f s from JVM start"
        + " to the map (%.1f s of CPU); %s", jvms, wall, cpu, counting);
  }
}

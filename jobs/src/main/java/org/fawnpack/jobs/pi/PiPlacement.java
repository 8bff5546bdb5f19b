package org.fawnpack.jobs.pi;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.hadoop.yarn.api.records.NodeReport;

/**
 * Where pi's maps run, decided before submission: as an uber job (every map inside the
 * ApplicationMaster's container, one after another, on that container's vcores) or as
 * {@code tasks} map tasks in containers of their own; and on the nodes of which node label.
 *
 * <p>The rule ({@link #decide}), a pure function of the job's settings and the
 * ResourceManager's node reports:
 * <ol>
 *   <li>{@code mapreduce.job.ubertask.enable} set by the user (site file or {@code -D}) wins:
 *       {@code true} is an uber job on the ApplicationMaster's nodes, {@code false} never one.
 *   <li>Else no uber job when the ApplicationMaster is sent to other nodes than the maps (its
 *       node label differs from theirs, e.g. the brawny master's {@code master}): the maps
 *       would run on the AM's node, and the job's time and joules would describe that node.
 *   <li>Else an uber job only when the maps fit {@code mapreduce.job.ubertask.maxmaps} and
 *       maps × samples is at most {@code fawn.jobs.pi.uber-max-points}.
 * </ol>
 * An uber job's container asks for the vcores of the largest running node it can land on
 * (nodes of its label only, at most {@code yarn.scheduler.maximum-allocation-vcores}). Otherwise
 * the points are cut into one map task per map vcore of the cluster (as wordcount2's splits,
 * through {@code ClusterVcores}), never more tasks than {@code <maps>}: fewer, longer tasks,
 * since every task container starts a JVM (Hadoop 3 has no JVM reuse).
 *
 * @param uber the maps run inside the ApplicationMaster's container
 * @param label the node label of the nodes the maps run on; "" for nodes without a label
 * @param vcores vcores of each map's container, which is also the threads each map counts on
 * @param tasks map tasks the points are cut into
 * @param reason why, for the line the tool prints before submitting
 */
record PiPlacement(boolean uber, String label, int vcores, int tasks, String reason) {

  /** The job's settings the rule reads (see {@link PiPlanner#settings}). */
  record Settings(Boolean userUber, String amLabel, String mapLabel, int maps, long samples,
      long maxPoints, int uberMaxMaps, int userMapVcores, int maxAllocationVcores) {
    long points() {
      return maps * samples;
    }
  }

  /**
   * Applies the rule.
   *
   * @param nodes the ResourceManager's RUNNING nodes (their labels and vcores)
   * @param mapVcores the vcores the cluster offers map tasks ({@code ClusterVcores.forJob})
   */
  static PiPlacement decide(Settings s, List<NodeReport> nodes, int mapVcores) {
    String key = "mapreduce.job.ubertask.enable";
    if (Boolean.FALSE.equals(s.userUber())) {
      return containers(s, mapVcores, key + "=false");
    }
    if (Boolean.TRUE.equals(s.userUber())) {
      String where = s.amLabel().equals(s.mapLabel()) ? ""
          : ", so the maps run on the ApplicationMaster's node (" + where(s.amLabel())
              + "), not on the map nodes (" + where(s.mapLabel()) + ")";
      return uber(s, nodes, s.amLabel(), key + "=true" + where);
    }
    if (!s.amLabel().equals(s.mapLabel())) {
      return containers(s, mapVcores, "ApplicationMasters run on " + where(s.amLabel())
          + ", the maps on " + where(s.mapLabel()) + ": an uber job would count on the"
          + " ApplicationMaster's node (" + key + "=true forces it)");
    }
    if (s.maps() > s.uberMaxMaps()) {
      return containers(s, mapVcores, s.maps() + " maps are more than"
          + " mapreduce.job.ubertask.maxmaps (" + s.uberMaxMaps() + ")");
    }
    if (s.points() > s.maxPoints()) {
      return containers(s, mapVcores, String.format(Locale.ROOT, "%,d points are more than %s"
          + " (%,d)", s.points(), PiPlanner.MAX_POINTS, s.maxPoints()));
    }
    return uber(s, nodes, s.mapLabel(), String.format(Locale.ROOT, "%,d points are at most %s"
        + " (%,d) and the ApplicationMaster runs on the map nodes (%s)", s.points(),
        PiPlanner.MAX_POINTS, s.maxPoints(), where(s.mapLabel())));
  }

  private static PiPlacement uber(Settings s, List<NodeReport> nodes, String label,
      String reason) {
    int vcores = s.userMapVcores() > 0 ? s.userMapVcores()
        : largestVcores(nodes, label, s.maxAllocationVcores());
    return new PiPlacement(true, label, vcores, s.maps(), reason);
  }

  private static PiPlacement containers(Settings s, int mapVcores, String reason) {
    int perTask = Math.max(1, s.userMapVcores());
    int tasks = Math.max(1, Math.min(s.maps(), mapVcores / perTask));
    return new PiPlacement(false, s.mapLabel(), perTask, tasks, reason);
  }

  /**
   * Vcores of the largest running node that carries {@code label} ("" = no label), at most
   * {@code cap}; 1 when there is none (the job then waits for such a node, as any job would).
   */
  static int largestVcores(List<NodeReport> nodes, String label, int cap) {
    int largest = nodes.stream().filter(n -> carries(n.getNodeLabels(), label))
        .mapToInt(n -> n.getCapability().getVirtualCores()).max().orElse(1);
    return Math.max(1, Math.min(largest, cap));
  }

  /**
   * A node takes a request for {@code label} when it carries it, and a request for no label
   * when it carries none: ClusterVcores's rule for map nodes (package-private there).
   */
  static boolean carries(Set<String> nodeLabels, String label) {
    boolean unlabelled = nodeLabels == null || nodeLabels.isEmpty();
    return label.isEmpty() ? unlabelled : !unlabelled && nodeLabels.contains(label);
  }

  static String where(String label) {
    return label.isEmpty() ? "nodes without a node label" : "nodes labelled '" + label + "'";
  }

  /** The line printed before submission. */
  String describe(int maps, long samples) {
    String what = uber
        ? String.format(Locale.ROOT, "an uber job: the %d maps one after another inside the"
            + " ApplicationMaster's container on %s, each on %d thread(s)", maps, where(label),
            vcores)
        : String.format(Locale.ROOT, "%d map task(s) in containers of their own on %s, %d"
            + " thread(s) each", tasks, where(label), vcores);
    return String.format(Locale.ROOT, "pi: %,d x %,d points as %s (%s)", maps, samples, what,
        reason);
  }
}

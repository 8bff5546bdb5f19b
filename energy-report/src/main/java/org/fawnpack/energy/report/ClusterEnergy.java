package org.fawnpack.energy.report;

import java.util.ArrayList;
import java.util.List;

/**
 * A job's cluster energy: every node's own history over the job's span, busy or idle, as the
 * papers measure a cluster (not only the nodes that ran one of its containers). A sample counts
 * when it ends in the span, as in the application's files. Each node is one of:
 * <ul>
 *   <li><b>whole</b>: its samples cover the span (at most two intervals missing) and reach
 *       its end;
 *   <li><b>partial</b>: it has samples in the span but not all of it (a collector restarted,
 *       a node that went down): counted for what it has, and named;
 *   <li><b>pending</b>: its history stops before the span's end but its next segment is not
 *       due yet ({@code roll_ms} after its last sample): counted for what it has, and named,
 *       so the user knows to ask again;
 *   <li>absent: its history ends before the span and is overdue, or begins after it: not part
 *       of the cluster during the job, left out and named.
 * </ul>
 * A node that ran one of the job's containers (it wrote the application's history file) but
 * has no node history is named as missing: the figure then covers fewer nodes than ran the job.
 * The cluster's figure is its slaves', as the papers count a cluster; a node whose history says
 * {@code role=master} is shown apart ({@link #masterJoules}).
 */
public record ClusterEnergy(List<NodeSpan> nodes, List<String> absent, List<String> missing) {

  /** How one node's history covers the span. */
  public enum Coverage { WHOLE, PARTIAL, PENDING, ABSENT }

  /**
   * One node's figures over the span, its utilisation among them ({@link Usage}), and the
   * samples they came from (for the charts).
   */
  public record NodeSpan(String node, boolean master, Coverage coverage, long nodeMicrojoules,
      long attributedMicrojoules, long coveredMillis, long sampleCount, long gaps,
      boolean estimated, Usage usage, List<NodeSegmentReader.NodeSample> samples) {
    public NodeSpan {
      samples = List.copyOf(samples);
    }
  }

  /**
   * A node's utilisation over the span: mean CPU busy percent and peak memory in use over the
   * samples that have them, and the bytes read, written, received and sent in it (-1 / NaN
   * when no sample had the figure).
   */
  public record Usage(double meanCpuPercent, long peakMemoryBytes, long diskReadBytes,
      long diskWrittenBytes, long netReceivedBytes, long netSentBytes) {

    static Usage of(List<NodeSegmentReader.NodeSample> inSpan) {
      double cpu = inSpan.stream().mapToDouble(NodeSegmentReader.NodeSample::cpuPercent)
          .filter(v -> v >= 0).average().orElse(Double.NaN);
      long memory = inSpan.stream().mapToLong(NodeSegmentReader.NodeSample::memoryUsedBytes)
          .max().orElse(-1);
      return new Usage(cpu, memory, sum(inSpan, NodeSegmentReader.NodeSample::diskReadBytes),
          sum(inSpan, NodeSegmentReader.NodeSample::diskWrittenBytes),
          sum(inSpan, NodeSegmentReader.NodeSample::netReceivedBytes),
          sum(inSpan, NodeSegmentReader.NodeSample::netSentBytes));
    }

    private static long sum(List<NodeSegmentReader.NodeSample> samples,
        java.util.function.ToLongFunction<NodeSegmentReader.NodeSample> figure) {
      long[] known = samples.stream().mapToLong(figure).filter(v -> v >= 0).toArray();
      return known.length == 0 ? -1 : java.util.Arrays.stream(known).sum();
    }
  }

  public ClusterEnergy {
    nodes = List.copyOf(nodes);
    absent = List.copyOf(absent);
    missing = List.copyOf(missing);
  }

  /**
   * The figures of {@code series} over {@code [startMillis, finishMillis]}, as of {@code
   * nowMillis}; {@code jobNodes} are the nodes that wrote the application's history.
   */
  public static ClusterEnergy of(List<NodeSegmentReader.NodeSeries> series, long startMillis,
      long finishMillis, long nowMillis, List<String> jobNodes) {
    List<NodeSpan> nodes = new ArrayList<>();
    List<String> absent = new ArrayList<>();
    List<String> seen = new ArrayList<>();
    for (NodeSegmentReader.NodeSeries s : series) {
      seen.add(s.node());
      NodeSpan span = span(s, startMillis, finishMillis, nowMillis);
      if (span.coverage() == Coverage.ABSENT) {
        absent.add(s.node());
      } else {
        nodes.add(span);
      }
    }
    List<String> missing = new ArrayList<>();
    for (String node : jobNodes) {
      if (!seen.contains(node) && !missing.contains(node)) {
        missing.add(node);
      }
    }
    return new ClusterEnergy(nodes, absent, missing);
  }

  static NodeSpan span(NodeSegmentReader.NodeSeries s, long start, long finish, long now) {
    long nodeUj = 0;
    long attributedUj = 0;
    long covered = 0;
    long inSpan = 0;
    long gaps = 0;
    long previousEnd = Long.MIN_VALUE;
    List<NodeSegmentReader.NodeSample> inSpanSamples = new ArrayList<>();
    long first = Long.MAX_VALUE;
    long last = Long.MIN_VALUE;
    for (NodeSegmentReader.NodeSample sample : s.samples()) {
      long end = sample.endMillis();
      first = Math.min(first, end);
      last = Math.max(last, end);
      if (end >= start && end <= finish) {
        inSpan++;
        inSpanSamples.add(sample);
        gaps += sample.gap() ? 1 : 0;
        nodeUj += sample.nodeMicrojoules();
        attributedUj += sample.attributedMicrojoules();
      }
      // What of the span the sample's interval covers (the one straddling the finish too:
      // a sample counts where it ends, but a late one still says the node was there).
      long begin = previousEnd != Long.MIN_VALUE ? previousEnd
          : s.intervalMillis() > 0 ? end - s.intervalMillis() : end;
      covered += Math.max(0, Math.min(end, finish) - Math.max(begin, start));
      previousEnd = end;
    }
    Coverage coverage;
    long slack = 2L * Math.max(s.intervalMillis(), 1);
    boolean due = s.rollMillis() <= 0 || last + s.rollMillis() + slack < now;
    if (last >= finish && covered >= finish - start - slack) {
      coverage = Coverage.WHOLE;
    } else if (first > finish || (last < start && due) || s.samples().isEmpty()) {
      coverage = Coverage.ABSENT;
    } else if (last < finish && !due) {
      coverage = Coverage.PENDING;
    } else {
      coverage = Coverage.PARTIAL;
    }
    return new NodeSpan(s.node(), s.master(), coverage, nodeUj, attributedUj, covered, inSpan, gaps,
        s.estimated(), Usage.of(inSpanSamples), inSpanSamples);
  }

  /** The energy of every slave over the span, joules: the cluster's figure. */
  public double joules() {
    return slaves().mapToLong(NodeSpan::nodeMicrojoules).sum() / 1e6;
  }

  /** The master's (every node of role master) over the span, joules; 0 when none is known. */
  public double masterJoules() {
    return nodes.stream().filter(NodeSpan::master).mapToLong(NodeSpan::nodeMicrojoules).sum()
        / 1e6;
  }

  /** The slaves counted. */
  public long slaveCount() {
    return slaves().count();
  }

  private java.util.stream.Stream<NodeSpan> slaves() {
    return nodes.stream().filter(n -> !n.master());
  }

  /** The share of the slaves' energy no container of any application got. */
  public double idleShare() {
    long all = slaves().mapToLong(NodeSpan::nodeMicrojoules).sum();
    long attributed = slaves().mapToLong(NodeSpan::attributedMicrojoules).sum();
    return all > 0 ? 1 - (double) attributed / all : Double.NaN;
  }

  /** The nodes of a coverage, by name. */
  public List<String> named(Coverage coverage) {
    return nodes.stream().filter(n -> n.coverage() == coverage).map(NodeSpan::node).toList();
  }

  /** True when every node counted covers the whole span and none that ran the job is missing. */
  public boolean complete() {
    return !nodes.isEmpty() && missing.isEmpty()
        && nodes.stream().allMatch(n -> n.coverage() == Coverage.WHOLE);
  }

  public boolean estimated() {
    return nodes.stream().anyMatch(NodeSpan::estimated);
  }
}

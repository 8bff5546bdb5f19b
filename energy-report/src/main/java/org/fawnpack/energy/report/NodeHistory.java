package org.fawnpack.energy.report;

import java.util.List;

/**
 * One parsed history file: one node's power over one application's life, and the application's
 * containers there (format: {@code docs/energy-report.md}, written by the collector's
 * {@code HistoryFile}).
 *
 * @param file the file's name ({@code <node>.csv} or {@code <node>-2.csv}, ...)
 * @param node the node name from the header (the file name without {@code .csv} if absent)
 * @param applicationId from the header (null if absent)
 * @param intervalMillis the sampling interval from the header (0 if absent)
 * @param meters the meter summary from the header ({@code name:type;...}, or null)
 * @param estimated the header's {@code estimated=} flag
 */
public record NodeHistory(String file, String node, String applicationId, int intervalMillis,
    String meters, boolean estimated, List<Sample> samples, List<Container> containers) {

  /** The container type the NodeManager gives an application's ApplicationMaster. */
  public static final String APPLICATION_MASTER = "APPLICATION_MASTER";

  public NodeHistory {
    samples = List.copyOf(samples);
    containers = List.copyOf(containers);
  }

  /**
   * One sampling interval ending at {@code endMillis}: the node's power then, the node's energy
   * in the interval and the application's share of it (microjoules); {@code gap} when a meter
   * failed in it and the value was bridged.
   */
  public record Sample(long endMillis, double watts, long nodeMicrojoules, long appMicrojoules,
      boolean gap) {
  }

  /** One container's account on this node. {@code stopMillis} is -1 if it had not stopped. */
  public record Container(String id, String type, int vcores, long memoryMb, long startMillis,
      long stopMillis, long energyMicrojoules, long idleMicrojoules, long samples, long gaps,
      boolean estimated) {

    public boolean isApplicationMaster() {
      return APPLICATION_MASTER.equals(type);
    }
  }
}

package org.fawnpack.energy.report;

/**
 * The cluster part of a report: the figures from the nodes' own histories, where they were
 * looked for, and why they are missing when they are.
 *
 * @param energy the figures, or null when none could be had
 * @param location the nodes' history directory ({@code <history dir>/nodes}), or null
 * @param problem why there are no figures (not found, a damaged file), or null
 */
public record ClusterFigures(ClusterEnergy energy, String location, String problem) {
  /** Before the nodes' histories were looked at. */
  public static final ClusterFigures NOT_READ = new ClusterFigures(null, null,
      "the nodes' histories were not read");
}

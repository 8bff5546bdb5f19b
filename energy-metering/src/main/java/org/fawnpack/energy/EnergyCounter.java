package org.fawnpack.energy;

/**
 * Counters a metered task adds just before it finishes (group
 * {@code org.fawnpack.energy.EnergyCounter}; display names in EnergyCounter.properties). The job's
 * values are the sums over its successful task attempts.
 */
public enum EnergyCounter {
  /** Energy attributed to the task's container, idle share included. */
  ENERGY_MILLIJOULES,
  /** The part of ENERGY_MILLIJOULES that is the container's share of the node's idle power. */
  IDLE_SHARE_MILLIJOULES,
  /** Power samples that covered the container's lifetime. */
  SAMPLES,
  /** Samples during which a meter failed, timed out or returned garbage (bridged, not lost). */
  METER_GAPS,
  /** Tasks that got their figures from the node's collector. */
  TASKS_METERED,
  /** Tasks on a node with no collector, or whose collector could not answer. */
  TASKS_UNMETERED,
  /** Metered tasks whose node power came (partly) from a model or a load percentage. */
  TASKS_ESTIMATED
}

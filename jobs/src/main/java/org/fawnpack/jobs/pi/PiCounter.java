package org.fawnpack.jobs.pi;

/** What the pi maps count (display names in PiCounter.properties); the job sums them exactly. */
public enum PiCounter {
  /** Points inside the circle. */
  INSIDE,
  /** Points generated. */
  SAMPLES,
  /** Map tasks that ran in a JVM of their own (not inside the ApplicationMaster). */
  TASK_JVMS,
  /** Summed over those tasks: wall time from their JVM's start to the map's setup. */
  TASK_START_MILLIS,
  /** Summed over those tasks: CPU their JVM had used when the map's setup began. */
  TASK_START_CPU_MILLIS,
  /** Summed over all maps: wall time spent counting points. */
  COUNT_MILLIS
}

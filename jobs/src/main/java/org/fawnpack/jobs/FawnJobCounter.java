package org.fawnpack.jobs;

/** Counters of the pack's jobs (display names in FawnJobCounter.properties). */
public enum FawnJobCounter {
  /** logcount: lines that are not log4j log lines (stack traces, blank lines, other text). */
  UNPARSED_LINES
}

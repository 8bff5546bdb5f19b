package org.fawnpack.jobs.pi;

/** What the pi maps count (display names in PiCounter.properties); the job sums them exactly. */
public enum PiCounter {
  /** Points inside the circle. */
  INSIDE,
  /** Points generated. */
  SAMPLES
}

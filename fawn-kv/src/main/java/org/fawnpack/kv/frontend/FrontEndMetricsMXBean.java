package org.fawnpack.kv.frontend;

/**
 * A front-end's figures over JMX ({@code Hadoop:service=FawnKv,name="FrontEnd-<name>"}):
 * requests taken and how they were answered, since it started.
 */
public interface FrontEndMetricsMXBean {
  String getName();

  /** The ring epoch it routes by (-1 before its first ring). */
  long getEpoch();

  long getGets();

  long getPuts();

  long getDeletes();

  /** Answers REFUSED (applied nowhere), its own and the back-ends'. */
  long getRefused();

  /** Answers ERROR (failed on the way; a write may have taken effect). */
  long getErrors();

  /** STALE_RING answers from back-ends (each rerouted). */
  long getStaleRingAnswers();
}

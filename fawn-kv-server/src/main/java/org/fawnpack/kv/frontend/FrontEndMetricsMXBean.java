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

  /** WRONG_SLICE answers: keys another front-end serves. */
  long getWrongSliceAnswers();

  /** The slice epoch it serves by (-1 before its first slice map). */
  long getSliceEpoch();

  /** Gets answered from its cache. */
  long getCacheHits();

  /** Gets of its slice's keys sent to a tail. */
  long getCacheMisses();

  /** Keys cached now (an estimate). */
  long getCacheEntries();

  /** The most keys it caches. */
  long getCacheCapacity();
}

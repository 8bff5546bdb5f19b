package org.fawnpack.kv.backend;

/**
 * A back-end's figures over JMX ({@code Hadoop:service=FawnKv,name="Backend-<id>"}): counts
 * since it started, and per arc role what it holds now (read when asked).
 */
public interface BackendMetricsMXBean {
  String getId();

  /** The ring epoch it serves (-1 before its first ring). */
  long getEpoch();

  long getUptimeMs();

  /** Gets it served as a tail. */
  long getGets();

  /** Puts and deletes it took as a head. */
  long getWrites();

  /** Writes it applied from its predecessor. */
  long getChainWrites();

  /** Retried writes it answered for their first try instead of applying again. */
  long getRetriesAnswered();

  /** Arcs it holds: serving (head, middle, tail or alone) or a finished copy not yet served. */
  int getArcs();

  int getArcsAsHead();

  int getArcsAsTail();

  int getArcsCopying();

  /** Live keys of the arcs it heads (each key counted once in a cluster). */
  long getKeysAsHead();

  /** Bytes of all its arc logs. */
  long getLogBytes();

  /** Bytes it received copying arcs since it started. */
  long getBytesCopiedIn();

  /** Compactions of its arc files since it started. */
  long getCompactions();

  /** Log bytes its compactions gave back since it started. */
  long getBytesReclaimed();

  /** Writes its arcs copied into their shared journal since it started (0 without one). */
  long getJournalWrites();

  /** Forces of that journal since it started: writes over forces is how many each covered. */
  long getJournalForces();
}

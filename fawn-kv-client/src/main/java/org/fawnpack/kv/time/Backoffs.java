package org.fawnpack.kv.time;

/**
 * The pauses of every retry loop in FAWN-KV, one {@link Backoff} per kind of wait, set by the
 * {@code fawn.kv.backoff.*} keys ({@code config.BackoffKeys}); nodes and clients are given one
 * of these and no loop keeps a pause of its own.
 *
 * @param request a client's request between its tries
 * @param cluster a node or driver waiting for the cluster to move on (a scan's failover, a
 *     front-end fencing the back-ends, a chain
 *     member whose successor is on another ring)
 * @param bulk a bulk load's driver waiting for a chain or a gate
 * @param copy a back-end's failed copy of an arc, before it asks again
 * @param chainResend a chain member resending what its successor may have missed, when no new
 *     write carries it
 * @param zookeeper a node retrying a step in ZooKeeper that failed or found nothing yet: a
 *     coordinator's check, a back-end's reading of its slice fence, a front-end's
 *     acknowledgement of a slice epoch
 */
public record Backoffs(Backoff request, Backoff cluster, Backoff bulk, Backoff copy,
    Backoff chainResend, Backoff zookeeper) {
  /**
   * What every loop used before the pauses could be set (but the ZooKeeper steps', which were
   * fixed at 200 ms or 1 s and now start at the first and back off to the second); what an
   * unset key gives.
   */
  public static final Backoffs DEFAULTS = new Backoffs(Backoff.CLIENT_REQUEST,
      Backoff.CLUSTER_STEP, Backoff.BULK_STEP, new Backoff(50, 500), new Backoff(200, 200),
      new Backoff(200, 1_000));

  public Backoffs {
    java.util.Objects.requireNonNull(request, "request");
    java.util.Objects.requireNonNull(cluster, "cluster");
    java.util.Objects.requireNonNull(bulk, "bulk");
    java.util.Objects.requireNonNull(copy, "copy");
    java.util.Objects.requireNonNull(chainResend, "chainResend");
    java.util.Objects.requireNonNull(zookeeper, "zookeeper");
  }
}

package org.fawnpack.kv.client;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.apache.yetus.audience.InterfaceAudience;
import org.apache.yetus.audience.InterfaceStability;
import org.fawnpack.kv.auth.ClusterSecret;
import org.fawnpack.kv.time.Backoff;

/**
 * The settings of a {@link FawnKvClient}, each with a default, checked as they are given:
 *
 * <pre>{@code
 * FawnKvClient kv = FawnKvClient.builder(frontEnds, secret)
 *     .deadline(Duration.ofSeconds(5))          // each request, all its tries (default 5 s)
 *     .tryTimeout(Duration.ofSeconds(3))        // each try (default 3 s, at most the deadline)
 *     .retryPauses(new Backoff(50, 1_600))      // between tries (fawn.kv.backoff.request.*)
 *     .readingTails("zk1:2181", "fawn")         // gets straight to the tails (default: off)
 *     .connect();
 * }</pre>
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class FawnKvClientBuilder {
  /** A request's deadline unless one is given: {@code fawn.kv.request-timeout-ms}'s default. */
  public static final Duration DEFAULT_DEADLINE = Duration.ofSeconds(5);

  private final List<InetSocketAddress> frontEnds;
  private final ClusterSecret secret;
  private Duration deadline = DEFAULT_DEADLINE;
  private Duration tryTimeout = FawnKvClient.DEFAULT_TRY_TIMEOUT;
  private Backoff retryPauses = Backoff.CLIENT_REQUEST;
  private String zooKeeperQuorum;
  private String cluster;

  FawnKvClientBuilder(List<InetSocketAddress> frontEnds, ClusterSecret secret) {
    if (frontEnds.isEmpty()) {
      throw new IllegalArgumentException("no front-end given");
    }
    this.frontEnds = List.copyOf(frontEnds);
    this.secret = Objects.requireNonNull(secret, "secret");
  }

  /** How long a request may take, all its tries together. */
  public FawnKvClientBuilder deadline(Duration deadline) {
    this.deadline = positive(deadline, "a request's deadline");
    return this;
  }

  /**
   * How long one try waits for its answer before the client asks its front-end whether it is
   * alive; capped at the deadline (see {@link FawnKvClient#connect(List, Duration, Duration,
   * ClusterSecret)}).
   */
  public FawnKvClientBuilder tryTimeout(Duration tryTimeout) {
    this.tryTimeout = positive(tryTimeout, "a try's timeout");
    return this;
  }

  /** The pauses between a request's tries: the first, doubled after each, capped. */
  public FawnKvClientBuilder retryPauses(Backoff pauses) {
    this.retryPauses = Objects.requireNonNull(pauses, "pauses");
    return this;
  }

  /**
   * Gets go straight to the tail of the key's chain, by the ring of {@code cluster} that the
   * client follows in ZooKeeper at {@code zooKeeperQuorum} on a session of its own (see
   * {@link FawnKvClient#connectReadingTails(List, Duration, Duration, ClusterSecret, String,
   * String)}); the client must reach the back-ends.
   */
  public FawnKvClientBuilder readingTails(String zooKeeperQuorum, String cluster) {
    this.zooKeeperQuorum = Objects.requireNonNull(zooKeeperQuorum, "zooKeeperQuorum");
    this.cluster = Objects.requireNonNull(cluster, "cluster");
    return this;
  }

  /**
   * Connects: asks the first front-end that answers for the slice map (and, reading tails,
   * ZooKeeper for the ring).
   *
   * @throws KvException (refused) when no front-end can be reached
   * @throws IOException naming the quorum or cluster when the ring cannot be followed
   */
  public FawnKvClient connect() throws IOException {
    if (zooKeeperQuorum == null) {
      return FawnKvClient.open(frontEnds, deadline, tryTimeout, secret, null, retryPauses);
    }
    return FawnKvClient.connectReadingTails(frontEnds, deadline, tryTimeout, secret,
        zooKeeperQuorum, cluster, retryPauses);
  }

  private static Duration positive(Duration d, String what) {
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(what + " must be positive: " + d);
    }
    return d;
  }
}

package org.fawnpack.kv.hadoop;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.Credentials;
import org.fawnpack.kv.auth.ClusterSecret;
import org.fawnpack.kv.client.FawnKvClient;
import org.fawnpack.kv.config.KvKeys;
import org.fawnpack.kv.config.TimeoutKeys;
import org.fawnpack.kv.wire.ConnectionPool;
import org.fawnpack.kv.wire.ProtocolLimits;
import org.fawnpack.kv.zookeeper.ClusterPaths;
import org.fawnpack.kv.wire.Timeouts;
import org.fawnpack.kv.zookeeper.RingStore;
import org.fawnpack.kv.zookeeper.SliceStore;
import org.fawnpack.kv.zookeeper.ZooKeeperSessions;

/**
 * A job's way into the FAWN-KV cluster: its ZooKeeper session (the store's
 * {@code fawn.kv.zookeeper.quorum}) and a connection pool that proves the cluster secret. The
 * secret travels to tasks in the job's credentials, never in its configuration: the submitter
 * reads the secret file ({@code fawn.kv.secret-file}, owner-only) once.
 */
final class KvClusterAccess implements Closeable {
  /** The credentials' alias of the cluster secret. */
  static final Text SECRET_ALIAS = new Text("fawn.kv.cluster-secret");

  private final CuratorFramework zk;
  private final ConnectionPool pool;
  private final RingStore rings;
  private final ClusterPaths paths;
  private final ClusterSecret secret;
  private final Timeouts timeouts;

  private KvClusterAccess(CuratorFramework zk, ConnectionPool pool, RingStore rings,
      ClusterPaths paths, ClusterSecret secret, Timeouts timeouts) {
    this.zk = zk;
    this.timeouts = timeouts;
    this.pool = pool;
    this.rings = rings;
    this.paths = paths;
    this.secret = secret;
  }

  /**
   * Puts the cluster secret into {@code credentials} unless it is there: read from the file
   * {@code fawn.kv.secret-file} names, which must be owner-only.
   */
  static void addSecret(Configuration conf, Credentials credentials) throws IOException {
    if (credentials.getSecretKey(SECRET_ALIAS) == null) {
      Path file = KvKeys.localPath(KvInputKeys.read(KvKeys.SECRET_FILE, conf));
      ClusterSecret.load(file); // refuses a missing, short or loosely readable file, by name
      credentials.addSecretKey(SECRET_ALIAS, Files.readAllBytes(file));
    }
    JobSecrets.shareWithLocalTasks(SECRET_ALIAS, conf, credentials);
  }

  /**
   * Opens a session to the cluster {@code conf} names, with the secret {@code credentials}
   * carry (or, under the local runner, {@link JobSecrets} finds).
   */
  static KvClusterAccess open(Configuration conf, Credentials credentials) throws IOException {
    byte[] secret = JobSecrets.find(SECRET_ALIAS, conf, credentials);
    if (secret == null) {
      throw new IOException("the job's credentials carry no FAWN-KV cluster secret ("
          + SECRET_ALIAS + "): set the job up with FawnKvInputFormat.setUp(job), or let"
          + " getSplits add it from " + KvKeys.SECRET_FILE.name());
    }
    String quorum = KvInputKeys.read(KvKeys.ZOOKEEPER_QUORUM, conf);
    if (quorum == null) {
      throw new IOException("FAWN-KV input needs " + KvKeys.ZOOKEEPER_QUORUM.name()
          + " (the ZooKeeper quorum the store's nodes use)");
    }
    CuratorFramework zk = ZooKeeperSessions.open(quorum,
        KvInputKeys.read(KvKeys.ZOOKEEPER_SESSION_TIMEOUT_MS, conf));
    ClusterPaths paths = new ClusterPaths(KvInputKeys.read(KvKeys.CLUSTER, conf));
    ClusterSecret clusterSecret = withTls(ClusterSecret.fromBytes(secret), conf);
    Timeouts timeouts;
    try {
      timeouts = TimeoutKeys.read(conf::getTrimmed);
    } catch (RuntimeException e) {
      zk.close();
      throw e;
    }
    return new KvClusterAccess(zk, new ConnectionPool(Duration.ofSeconds(10),
        ProtocolLimits.MAX_FRAME_BYTES, clusterSecret), new RingStore(zk, paths), paths,
        clusterSecret, timeouts);
  }

  /**
   * {@code secret}, inside TLS when {@code fawn.kv.tls.enabled} is true: the key and trust
   * stores are read on each task's node from the paths the job's configuration names (as
   * Hadoop's own ssl-client.xml names them), so they must be there on every node.
   */
  private static ClusterSecret withTls(ClusterSecret secret, Configuration conf) {
    org.fawnpack.kv.auth.TlsCredentials tls = org.fawnpack.kv.config.KvTlsKeys.credentials(
        conf::get);
    return tls == null ? secret : secret.withTls(tls);
  }

  /**
   * A client of the cluster's front-ends as registered in ZooKeeper now, with the request
   * deadline, try timeout and pauses between tries {@code conf} gives.
   */
  FawnKvClient client(Configuration conf) throws IOException {
    List<InetSocketAddress> frontEnds = new ArrayList<>();
    for (SliceStore.Registered f : new SliceStore(zk, paths).registered()) {
      frontEnds.add(new InetSocketAddress(f.endpoint().host(), f.endpoint().port()));
    }
    if (frontEnds.isEmpty()) {
      throw new IOException("the FAWN-KV cluster has no front-end registered in ZooKeeper"
          + " (under " + paths.frontEnds() + ")");
    }
    return FawnKvClient.builder(frontEnds, secret)
        .deadline(Duration.ofMillis(KvInputKeys.read(KvKeys.REQUEST_TIMEOUT_MS, conf)))
        .tryTimeout(Duration.ofMillis(KvInputKeys.read(KvKeys.CLIENT_TRY_TIMEOUT_MS, conf)))
        .retryPauses(org.fawnpack.kv.config.BackoffKeys.read(conf::getTrimmed).request())
        .connect();
  }

  RingStore rings() {
    return rings;
  }

  CuratorFramework zk() {
    return zk;
  }

  ClusterPaths paths() {
    return paths;
  }

  ConnectionPool pool() {
    return pool;
  }

  /** How long to wait for each verb's answer: {@code fawn.kv.timeout.*} of the job. */
  Timeouts timeouts() {
    return timeouts;
  }

  /**
   * Closes the connections now and the ZooKeeper session on a daemon thread: ending a session
   * takes the client about 100 ms, which a map would otherwise wait for at every split's end
   * (the session holds no ephemeral node, so one cut short by the JVM's exit only lingers on
   * the server until it expires).
   */
  @Override
  public void close() {
    pool.close();
    Thread closer = new Thread(zk::close, "fawn-kv-zookeeper-close");
    closer.setDaemon(true);
    closer.start();
  }
}

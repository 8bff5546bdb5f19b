package org.fawnpack.kv.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Collectors;
import org.fawnpack.conf.ConfigKey;
import org.fawnpack.conf.InvalidConfigValueException;
import org.fawnpack.kv.auth.ClusterSecret;
import org.fawnpack.kv.backend.CompactionSettings;
import org.fawnpack.kv.config.BackoffKeys;
import org.fawnpack.kv.config.KvKeys;
import org.fawnpack.kv.config.KvTlsKeys;
import org.fawnpack.kv.config.TimeoutKeys;
import org.fawnpack.kv.store.DatastoreConfig;
import org.fawnpack.kv.time.Backoffs;

/**
 * The {@code -D} settings of a {@code ./fawn kv} command: the cluster's keys ({@link KvKeys})
 * and the datastore's ({@link DatastoreConfig}); any other {@code fawn.kv.} key is refused by
 * name, so a typo is an error rather than a default.
 */
public record KvSettings(String cluster, String quorum, int sessionTimeoutMs, String durability,
    int vnodes, int replicas,
    int bootstrapBackends, int requestTimeoutMs, int tryTimeoutMs, Path secretFile, DatastoreConfig datastore,
    long cacheEntries, Integer energyCollectorPort, Double idleWatts, Double busyWatts,
    String domain, org.fawnpack.kv.backend.CompactionSettings compaction, long downGraceMs,
    long tailReadLeaseMs, org.fawnpack.kv.auth.TlsCredentials tls, int ioThreads,
    Backoffs backoffs, org.fawnpack.kv.wire.Timeouts timeouts) {

  public static KvSettings from(Map<String, String> settings) {
    Map<String, String> store = new HashMap<>();
    for (Map.Entry<String, String> e : settings.entrySet()) {
      boolean cluster = KvKeys.KEYS.stream().anyMatch(k -> k.name().equals(e.getKey()));
      boolean datastore = DatastoreConfig.KEYS.stream().anyMatch(k -> k.name().equals(e.getKey()));
      if (datastore) {
        store.put(e.getKey(), e.getValue());
      } else if (!cluster) {
        throw new InvalidConfigValueException(e.getKey(), e.getValue(), "a known key: "
            + java.util.stream.Stream.concat(KvKeys.KEYS.stream(), DatastoreConfig.KEYS.stream())
                .map(ConfigKey::name).collect(Collectors.joining(", ")));
      }
    }
    return new KvSettings(KvKeys.CLUSTER.read(settings::get),
        KvKeys.ZOOKEEPER_QUORUM.read(settings::get),
        KvKeys.ZOOKEEPER_SESSION_TIMEOUT_MS.read(settings::get),
        KvKeys.DURABILITY.read(settings::get), KvKeys.VNODES.read(settings::get),
        KvKeys.REPLICAS.read(settings::get), KvKeys.BOOTSTRAP_BACKENDS.read(settings::get),
        KvKeys.REQUEST_TIMEOUT_MS.read(settings::get),
        KvKeys.CLIENT_TRY_TIMEOUT_MS.read(settings::get),
        home(KvKeys.SECRET_FILE.read(settings::get)), DatastoreConfig.fromMap(store),
        cacheEntries(KvKeys.FRONTEND_CACHE_ENTRIES.read(settings::get)),
        KvKeys.ENERGY_COLLECTOR_PORT.read(settings::get),
        KvKeys.ENERGY_IDLE_WATTS.read(settings::get), KvKeys.ENERGY_BUSY_WATTS.read(settings::get),
        KvKeys.BACKEND_DOMAIN.read(settings::get), CompactionSettings.fromKeys(settings::get),
        KvKeys.DOWN_GRACE_MS.read(settings::get), KvKeys.TAIL_READ_LEASE_MS.read(settings::get),
        KvTlsKeys.credentials(settings::get), KvKeys.IO_THREADS.read(settings::get),
        BackoffKeys.read(settings::get), TimeoutKeys.read(settings::get));
  }

  /**
   * Where a back-end's node energy comes from: the collector's port, else the power model,
   * else nowhere; a model given half is a usage error naming the missing key.
   */
  org.fawnpack.kv.energy.NodeEnergy nodeEnergy() throws IOException {
    if (energyCollectorPort != null) {
      return new org.fawnpack.kv.energy.CollectorNodeEnergy(energyCollectorPort);
    }
    if (idleWatts == null && busyWatts == null) {
      return org.fawnpack.kv.energy.NodeEnergy.NONE;
    }
    if (idleWatts == null || busyWatts == null) {
      ConfigKey<Double> missing = idleWatts == null ? KvKeys.ENERGY_IDLE_WATTS
          : KvKeys.ENERGY_BUSY_WATTS;
      throw new InvalidConfigValueException(missing.name(), "(unset)",
          "a number, since the power model's other figure is set");
    }
    if (busyWatts < idleWatts) {
      throw new InvalidConfigValueException(KvKeys.ENERGY_BUSY_WATTS.name(),
          busyWatts.toString(), "at least " + KvKeys.ENERGY_IDLE_WATTS.name() + " ("
          + idleWatts + ")");
    }
    return new org.fawnpack.kv.energy.ModelNodeEnergy(idleWatts, busyWatts);
  }

  private static long cacheEntries(Integer configured) {
    return configured == null ? org.fawnpack.kv.frontend.FrontEnd.CACHE_ENTRIES_AUTO : configured;
  }

  /** A leading "~/" is the user's home, as a shell would have it. */
  private static Path home(String path) {
    return KvKeys.localPath(path);
  }

  /** The cluster secret, carrying this node's TLS credentials when TLS is on. */
  public ClusterSecret secret() throws IOException {
    ClusterSecret secret = ClusterSecret.load(secretFile);
    return tls == null ? secret : secret.withTls(tls);
  }

  /** The quorum, or a usage error naming the key when a command needs it and it is unset. */
  String requireQuorum(String command) {
    if (quorum == null) {
      throw new InvalidConfigValueException(KvKeys.ZOOKEEPER_QUORUM.name(), "(unset)",
          "ZooKeeper's host:port list, which '" + command + "' needs");
    }
    return quorum;
  }
}

package org.fawnpack.kv.config;

import java.util.List;
import java.util.stream.Stream;
import org.fawnpack.conf.ConfigKey;

/**
 * The FAWN-KV cluster's keys (the datastore's own are {@code DatastoreConfig.KEYS}). Given to
 * {@code ./fawn kv} as {@code -Dname=value}.
 */
public final class KvKeys {
  public static final ConfigKey<String> CLUSTER = ConfigKey.stringKey("fawn.kv.cluster", "fawn",
      "letters, digits, '_', '.', '-'", name -> name.matches("[A-Za-z0-9_.-]+"),
      "Name of the cluster: its state in ZooKeeper is under /fawn-kv/<name>, so several"
      + " clusters can share one ZooKeeper.");
  public static final ConfigKey<String> ZOOKEEPER_QUORUM = ConfigKey.stringKey(
      "fawn.kv.zookeeper.quorum", null,
      "ZooKeeper's host:port list (on a Hadoop cluster, the one Hadoop uses:"
      + " hadoop.zk.address); back-ends, front-ends and ring need it. Unset: none.");
  public static final ConfigKey<Integer> ZOOKEEPER_SESSION_TIMEOUT_MS = ConfigKey.intKey(
      "fawn.kv.zookeeper.session-timeout-ms", 15_000, 1_000, 600_000,
      "ZooKeeper session timeout of each back-end and front-end, in ms: a back-end whose"
      + " session ends this long after its last sign of life is marked down and its chains"
      + " shrink; also how long a front-end's coordinator, once started, waits for ring members"
      + " it has not yet seen registered (a cluster restarting as a whole) before marking them"
      + " down. ZooKeeper holds it within 2 to 20 of its tickTime (4 to 40 s embedded).");
  public static final ConfigKey<String> DURABILITY = ConfigKey.stringKey("fawn.kv.durability",
      "every-member", "every-member or tail",
      v -> v.equals("every-member") || v.equals("tail"),
      "Which members of a chain force a write to their device before it is acknowledged:"
      + " every-member (each before it passes the answer up: an acknowledged write survives a"
      + " whole-cluster power cut even with any one member's disk lost) or tail (only the"
      + " tail: one force per write instead of one per member, and a power cut that also"
      + " loses a tail's disk may lose the writes that tail acknowledged last).");
  public static final ConfigKey<Integer> VNODES = ConfigKey.intKey("fawn.kv.vnodes", 4, 1, 1024,
      "Virtual nodes per back-end on the ring; used when the first ring is made.");
  public static final ConfigKey<Integer> REPLICAS = ConfigKey.intKey("fawn.kv.replicas", 3, 1,
      16, "Members of each replica chain, on distinct hosts; used when the first ring is made.");
  public static final ConfigKey<String> BACKEND_DOMAIN = ConfigKey.stringKey(
      "fawn.kv.backend.domain", null, "a word without spaces or '=', or unset",
      org.fawnpack.kv.ring.Member::validDomain,
      "A back-end's failure domain: what it shares a fate with, such as a box of boards on one"
      + " supply and one switch (e.g. box3). Chains take their members from distinct domains"
      + " while there are at least fawn.kv.replicas of them, then from distinct hosts. Unset:"
      + " its host. Fixed for the life of the back-end (a new domain is a new back-end id).");
  public static final ConfigKey<Long> TAIL_READ_LEASE_MS = ConfigKey.longKey(
      "fawn.kv.tail-read-lease-ms", 0L, 0, 60_000,
      "Back-ends answer clients' gets sent straight to a chain's tail (FawnKvClient"
      + ".connectReadingTails: one hop instead of two through a front-end) under a read lease"
      + " this long, renewed from ZooKeeper every quarter of it; a member that becomes an arc's"
      + " tail holds the arc's gets and write acknowledgements this long first. 0: direct gets"
      + " are refused and clients read through the front-ends. Set on every back-end.");
  public static final ConfigKey<Long> DOWN_GRACE_MS = ConfigKey.longKey(
      "fawn.kv.down-grace-ms", 86_400_000L, 0, 365L * 86_400_000,
      "How long a back-end may stay down before the coordinator removes it for good: its"
      + " virtual nodes go and the arcs they bound merge into their successors' (as ./fawn kv"
      + " remove does). A removed back-end is not taken back under its id. 0: only when an"
      + " operator asks. Counted by the coordinator in charge, from when it first saw the"
      + " member down (a new coordinator counts again).");
  public static final ConfigKey<Integer> BOOTSTRAP_BACKENDS = ConfigKey.intKey(
      "fawn.kv.bootstrap-backends", 3, 1, 100_000,
      "Back-ends that must have registered before the coordinator makes the first ring.");
  public static final ConfigKey<Integer> REQUEST_TIMEOUT_MS = ConfigKey.intKey(
      "fawn.kv.request-timeout-ms", 5_000, 1, 3_600_000,
      "Deadline of each client request (put, get, delete), in ms.");
  public static final ConfigKey<Integer> CLIENT_TRY_TIMEOUT_MS = ConfigKey.intKey(
      "fawn.kv.client.try-timeout-ms", 3_000, 1, 3_600_000,
      "How long a client request waits for an answer before it asks its front-end whether it is"
      + " alive (SLICES, 1 s): an answer means a busy chain, and the wait goes on up to the"
      + " request's deadline; none means a frozen front-end, and the request is tried again by"
      + " a slice map asked of the other front-ends, so a frozen front-end costs a try and a"
      + " probe, not the deadline.");

  public static final ConfigKey<String> SECRET_FILE = ConfigKey.stringKey(
      "fawn.kv.secret-file", "~/.fawn-kv/secret",
      "File holding the cluster secret every node and client proves when it connects; mode"
      + " 600 (a file others can read is refused). ./fawn kv local makes it when missing.");

  public static final ConfigKey<Integer> FRONTEND_CACHE_ENTRIES = ConfigKey.optionalIntKey(
      "fawn.kv.frontend.cache-entries", 0, 100_000_000,
      "Most keys each front-end caches (hot keys of its slice, committed values only); 0: no"
      + " cache. Unset: N log2 N for N live back-ends (the paper's bound for a cache that"
      + " evens out any skew), following the ring.");

  public static final ConfigKey<Integer> ENERGY_COLLECTOR_PORT = ConfigKey.optionalIntKey(
      "fawn.kv.energy.collector-port", 1, 65_535,
      "Loopback port of the Hadoop energy collector on each back-end's node (its"
      + " fawn.energy.port): the back-end reports the node's metered energy for queries per"
      + " joule. Unset: the power model below, if given.");
  public static final ConfigKey<Double> ENERGY_IDLE_WATTS = ConfigKey.optionalDoubleKey(
      "fawn.kv.energy.idle-watts", 0, 100_000,
      "Power model of a back-end's node when no collector runs: whole-node watts at idle (the"
      + " paper's Edison: 1.40). With busy-watts; both unset: energy not metered.");
  public static final ConfigKey<Double> ENERGY_BUSY_WATTS = ConfigKey.optionalDoubleKey(
      "fawn.kv.energy.busy-watts", 0, 100_000,
      "Power model: whole-node watts with every CPU busy (the paper's Edison: 1.68); the model"
      + " is linear in the back-end process's CPU use over the node's CPUs (as if it ran"
      + " alone), and its figures are marked as estimates.");

  public static final ConfigKey<Boolean> COMPACTION_ENABLED = ConfigKey.booleanKey(
      "fawn.kv.compaction.enabled", true,
      "Whether each back-end compacts its arc files (drops overwritten and deleted records its"
      + " chain and readers no longer need). false: files grow with every write.");
  public static final ConfigKey<Double> COMPACTION_GARBAGE_RATIO = ConfigKey.doubleKey(
      "fawn.kv.compaction.garbage-ratio", 0.5, 0.05, 1.0,
      "An arc file is compacted once its estimated garbage (bytes of overwritten and deleted"
      + " records over the file's bytes) reaches this; 0.5 keeps a file within about twice its"
      + " live bytes.");
  public static final ConfigKey<Long> COMPACTION_BYTES_PER_SECOND = ConfigKey.bytesKey(
      "fawn.kv.compaction.bytes-per-second", 8L << 20, 64L << 10, 1L << 40,
      "Pace of a compaction's (and its census's) reads, so that a wimpy node's one disk keeps"
      + " room for gets and puts; it writes at most as much.");
  public static final ConfigKey<Long> COMPACTION_CUT_RETENTION_MS = ConfigKey.longKey(
      "fawn.kv.compaction.cut-retention-ms", 3_600_000, 0, 30L * 86_400_000,
      "A point-in-time read (a consistent kvcount's or kvexport's scans) stays answerable this"
      + " long after its cut was taken: compactions keep the versions it needs. Older cuts are"
      + " refused by name. Scans kept open on a back-end pin their cut there regardless.");
  public static final ConfigKey<Long> COMPACTION_CHECK_MS = ConfigKey.longKey(
      "fawn.kv.compaction.check-ms", 10_000, 10, 3_600_000,
      "How often a back-end looks at its arcs' garbage (and samples what their chains hold).");

  public static final ConfigKey<Integer> IO_THREADS = ConfigKey.intKey("fawn.kv.io-threads", 0,
      0, 1024, "Event-loop threads of a node's JVM, shared by all its FAWN-KV sockets; 0 = one"
      + " per core. Nodes sharing a machine do better with fewer: the loopback cluster (demo,"
      + " benchmarks) gives each child back-end its share of the cores, at least 1.");

  public static final List<ConfigKey<?>> KEYS = Stream.concat(Stream.<ConfigKey<?>>of(CLUSTER,
      ZOOKEEPER_QUORUM,
      ZOOKEEPER_SESSION_TIMEOUT_MS, DURABILITY, VNODES,
      REPLICAS, BACKEND_DOMAIN, DOWN_GRACE_MS, TAIL_READ_LEASE_MS, BOOTSTRAP_BACKENDS, REQUEST_TIMEOUT_MS, CLIENT_TRY_TIMEOUT_MS, SECRET_FILE, FRONTEND_CACHE_ENTRIES,
      ENERGY_COLLECTOR_PORT, ENERGY_IDLE_WATTS, ENERGY_BUSY_WATTS, COMPACTION_ENABLED,
      COMPACTION_GARBAGE_RATIO, COMPACTION_BYTES_PER_SECOND, COMPACTION_CUT_RETENTION_MS,
      COMPACTION_CHECK_MS, KvTlsKeys.ENABLED, KvTlsKeys.KEYSTORE_LOCATION,
      KvTlsKeys.KEYSTORE_PASSWORD, KvTlsKeys.KEYSTORE_TYPE, KvTlsKeys.TRUSTSTORE_LOCATION,
      KvTlsKeys.TRUSTSTORE_PASSWORD, KvTlsKeys.TRUSTSTORE_TYPE, IO_THREADS),
      Stream.concat(TimeoutKeys.KEYS.stream(), BackoffKeys.KEYS.stream())).toList();

  private KvKeys() {}

  /**
   * A local file's path as a key gives it: a leading "~/" is the user's home, as a shell would
   * have it (the default secret file is written so).
   */
  public static java.nio.file.Path localPath(String path) {
    return path.startsWith("~/")
        ? java.nio.file.Path.of(System.getProperty("user.home"), path.substring(2))
        : java.nio.file.Path.of(path);
  }
}

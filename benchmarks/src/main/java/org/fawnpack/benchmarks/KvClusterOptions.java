package org.fawnpack.benchmarks;

import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** The options of {@code ./fawn bench-kv-cluster}, shared by its parts. */
record KvClusterOptions(Set<String> parts, int keys, int seconds, int clients, int ycsbRecords,
    int moveMegabytes, int soakMinutes, int soakKeys, int soakRate, Path dir) {

  /** What runs without --part. */
  static final List<String> ALL_PARTS = List.of("figure10", "ycsb", "moves", "routing",
      "scan", "mapreduce");
  /** Every part --part accepts: the soak runs only when asked for (it takes long). */
  static final List<String> PARTS = List.of("figure10", "ycsb", "moves", "routing",
      "scan", "mapreduce", "soak", "powercut", "bulk", "journal");

  static final String USAGE = """
      Usage: ./fawn bench-kv-cluster [--part P[,P...] (all)] [--keys N (100000)] \
      [--seconds S per cell (5)] [--clients C (8)] [--ycsb-records N (20000)] \
      [--move-mb M (256)] [--soak-minutes M (15)] [--soak-keys N (50000)] \
      [--soak-rate OPS (1000)] [--dir D (target/bench-kv-cluster)]
        The FAWN-KV cluster on loopback, 4 back-ends as child JVMs (chains of 3), parts:
          figure10  1 front-end; gets/s from uniform to one key, cache off and on (~2 min)
          ycsb      YCSB workloads A, B, C (uniform, zipfian) against FAWN-KV and redis-server
                    (AOF everysec) with the same client threads (~5 min; redis row skipped
                    when redis-server is not installed)
          moves     a join and a failure's re-replication: seconds per GB moved, against a
                    plain loopback copy of the same bytes (~3 min)
          routing   one front-end's gets/s with 1 to 256 requests in flight per client (~1 min)
          scan      the whole store read by range scans from the tails (1 and 4 readers)
                    against reading the tails' files in one JVM; --keys of 1000 bytes (~1 min)
          mapreduce the input format against the tails' files; a snapshot to HDFS; kvcount
                    over FAWN-KV, the snapshot and SequenceFiles on the embedded Hadoop
                    cluster, with joules; kvload bulk against batched puts (--keys; ~5 min
                    at 200000)
          bulk      only when named: --keys of 200 bytes by batched puts, then the same
                    keys as one FAWN-DS file per arc attached (BulkAttach), then a plain
                    copy of the files' bytes, once per replica (~1 min at 200000)
          powercut  only when named: every back-end SIGKILLed at once, three times, after
                    --move-mb of 16 KB values; seconds from the last restart to every arc
                    readable and to every chain whole (~3 min)
          journal   only when named: one journal per back-end against a force per arc file,
                    alternating, 2 rounds each on fresh clusters: --keys of 100 bytes loaded
                    in batches, then single puts from --clients threads for --seconds, with
                    the back-ends' CPU per put (~4 min at 100000 keys, 15 s)
          soak      only when named: --soak-minutes of overwrites, deletes and gets at
                    --soak-rate ops/s on --soak-keys keys of 1000 bytes, against a cluster
                    that never compacts and one that compacts (cut retention 0): log bytes
                    over live bytes every 10 s, get and put p50/p99 (2 x M minutes)
        Each part rewrites its own section of docs/benchmarks.md.""";

  /** Parses the arguments; throws IllegalArgumentException naming a bad one. */
  static KvClusterOptions parse(String[] args) {
    Set<String> parts = new LinkedHashSet<>(ALL_PARTS);
    int keys = 100_000;
    int seconds = 5;
    int clients = 8;
    int ycsbRecords = 20_000;
    int moveMegabytes = 256;
    int soakMinutes = 15;
    int soakKeys = 50_000;
    int soakRate = 1_000;
    Path dir = Path.of("target/bench-kv-cluster");
    for (int i = 0; i < args.length; i++) {
      String option = args[i];
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException(option + " needs a value");
      }
      String value = args[++i];
      switch (option) {
        case "--part" -> {
          parts = new LinkedHashSet<>(List.of(value.split(",")));
          for (String part : parts) {
            if (!PARTS.contains(part)) {
              throw new IllegalArgumentException("--part: no part '" + part + "'; parts are "
                  + PARTS);
            }
          }
        }
        case "--keys" -> keys = positive(option, value);
        case "--seconds" -> seconds = positive(option, value);
        case "--clients" -> clients = positive(option, value);
        case "--ycsb-records" -> ycsbRecords = positive(option, value);
        case "--move-mb" -> moveMegabytes = positive(option, value);
        case "--soak-minutes" -> soakMinutes = positive(option, value);
        case "--soak-keys" -> soakKeys = positive(option, value);
        case "--soak-rate" -> soakRate = positive(option, value);
        case "--dir" -> dir = Path.of(value);
        default -> throw new IllegalArgumentException("unknown option " + option);
      }
    }
    return new KvClusterOptions(parts, keys, seconds, clients, ycsbRecords, moveMegabytes,
        soakMinutes, soakKeys, soakRate, dir);
  }

  private static int positive(String option, String value) {
    String wanted = option + " wants a positive whole number, not '" + value + "'";
    int n;
    try {
      n = Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(wanted, e);
    }
    if (n <= 0) {
      throw new IllegalArgumentException(wanted);
    }
    return n;
  }
}

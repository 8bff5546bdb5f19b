package org.fawnpack.benchmarks.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import org.fawnpack.kv.loopback.LoopbackCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * Both YCSB bindings against real stores (FAWN-KV: 3 back-ends as child JVMs and a front-end;
 * Redis: Debian's redis-server, skipped when it is not installed), each checked against a
 * model of records; and YCSB's own client driving the FAWN-KV binding.
 */
class YcsbBindingsTest {
  @TempDir
  Path dir;

  @Test
  void fawnKvBinding_matchesAModel_andRunsUnderYcsbsClient() throws Exception {
    try (LoopbackCluster cluster = LoopbackCluster.start(dir.resolve("kv"), 3, 1,
        Map.of("fawn.kv.tail-read-lease-ms", "1000"))) {
      Properties p = new Properties();
      var address = cluster.frontEndAddresses().get(0);
      p.setProperty(FawnKvYcsbClient.FRONTENDS, address.getHostString() + ":"
          + address.getPort());
      p.setProperty(FawnKvYcsbClient.SECRET, cluster.secretFile().toString());
      checkAgainstModel(new FawnKvYcsbClient(), p);
      Properties direct = new Properties();
      direct.putAll(p);
      direct.setProperty(FawnKvYcsbClient.ZOOKEEPER, cluster.zooKeeperQuorum());
      checkAgainstModel(new FawnKvYcsbClient(), direct, "direct-"); // reads straight to tails

      Map<String, String> ycsb = new HashMap<>();
      p.forEach((k, v) -> ycsb.put((String) k, (String) v));
      ycsb.putAll(Map.of("workload", "site.ycsb.workloads.CoreWorkload", "recordcount", "200",
          "operationcount", "2000", "readproportion", "0.5", "updateproportion", "0.5",
          "writeallfields", "true"));
      YcsbRun.Result load = YcsbRun.run(FawnKvYcsbClient.class, true, 2, ycsb,
          dir.resolve("load.log"));
      assertEquals(200, load.get("INSERT", "Return=OK"));
      YcsbRun.Result run = YcsbRun.run(FawnKvYcsbClient.class, false, 2, ycsb,
          dir.resolve("run.log"));
      assertEquals(2000, run.get("READ", "Return=OK") + run.get("UPDATE", "Return=OK"));
      assertEquals(0, run.notOk());
      assertTrue(run.clientCpuSeconds() > 0, "YcsbMain printed the client's CPU time");
    }
  }

  @Test
  void fawnKvBinding_withoutFrontEnds_isRefusedNamingTheProperty() {
    FawnKvYcsbClient db = new FawnKvYcsbClient();
    db.setProperties(new Properties());
    DBException e = assertThrows(DBException.class, db::init);
    assertTrue(e.getMessage().contains(FawnKvYcsbClient.FRONTENDS), e.getMessage());
  }

  @Test
  void redisBinding_matchesAModel() throws Exception {
    var program = RedisServer.find();
    assumeTrue(program.isPresent(), "redis-server is not installed");
    try (RedisServer redis = RedisServer.start(program.get(), dir.resolve("redis"))) {
      Properties p = new Properties();
      p.setProperty(RedisYcsbClient.PORT, Integer.toString(redis.port()));
      checkAgainstModel(new RedisYcsbClient(), p);
    }
  }

  /**
   * Random inserts, whole updates (of any record) and partial ones (of existing records),
   * deletes and reads (all fields or some) of 20 records of 4 fields, each answer compared with
   * a map of maps. Shared with {@link EtcdBindingTest}.
   */
  static void checkAgainstModel(DB db, Properties properties) throws DBException {
    checkAgainstModel(db, properties, "");
  }

  /** As above, on records whose keys start with {@code prefix} (none there yet). */
  static void checkAgainstModel(DB db, Properties properties, String prefix)
      throws DBException {
    properties.setProperty("fieldcount", "4");
    db.setProperties(properties);
    db.init();
    try {
      checkAgainstModel(db, prefix);
    } finally {
      db.cleanup();
    }
  }

  private static void checkAgainstModel(DB db, String prefix) {
    Map<String, Map<String, String>> model = new HashMap<>();
    Random random = new Random(11);
    for (int step = 0; step < 400; step++) {
      String key = prefix + "user" + random.nextInt(20);
      int op = random.nextInt(5);
      if (op == 2 && !model.containsKey(key)) {
        op = 1; // partial updates only of records that exist: Redis would create them
      }
      Map<String, String> fields = new HashMap<>();
      int fieldCount = op == 2 ? 1 + random.nextInt(3) : 4;
      for (int f = 0; f < fieldCount; f++) {
        fields.put("field" + (op == 2 ? random.nextInt(4) : f), "v" + step + "-" + f);
      }
      String at = "step " + step + " (" + key + ")";
      switch (op) {
        case 0 -> {
          assertEquals(Status.OK, db.insert("usertable", key, iterators(fields)), at);
          model.put(key, new HashMap<>(fields));
        }
        case 1, 2 -> {
          assertEquals(Status.OK, db.update("usertable", key, iterators(fields)), at);
          model.computeIfAbsent(key, k -> new HashMap<>()).putAll(fields);
        }
        case 3 -> assertEquals(model.remove(key) != null ? Status.OK : Status.NOT_FOUND,
            db.delete("usertable", key), at);
        default -> {
          boolean some = random.nextBoolean();
          Set<String> wanted = some ? Set.of("field0", "field2") : null;
          Map<String, ByteIterator> read = new HashMap<>();
          Status status = db.read("usertable", key, wanted, read);
          Map<String, String> expected = model.get(key);
          if (expected == null) {
            assertEquals(Status.NOT_FOUND, status, at);
          } else {
            assertEquals(Status.OK, status, at);
            Map<String, String> wantedFields = new HashMap<>(expected);
            if (wanted != null) {
              wantedFields.keySet().retainAll(wanted);
            }
            assertEquals(wantedFields, strings(read), at);
          }
        }
      }
    }
  }

  private static Map<String, ByteIterator> iterators(Map<String, String> fields) {
    Map<String, ByteIterator> out = new HashMap<>();
    fields.forEach((k, v) -> out.put(k, new ByteArrayByteIterator(
        v.getBytes(StandardCharsets.UTF_8))));
    return out;
  }

  private static Map<String, String> strings(Map<String, ByteIterator> fields) {
    Map<String, String> out = new HashMap<>();
    fields.forEach((k, v) -> out.put(k, new String(v.toArray(), StandardCharsets.UTF_8)));
    return out;
  }
}

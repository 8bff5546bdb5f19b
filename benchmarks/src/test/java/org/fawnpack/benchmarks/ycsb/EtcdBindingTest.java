package org.fawnpack.benchmarks.ycsb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import site.ycsb.DBException;

/**
 * The etcd binding against three etcd members on loopback (Debian's etcd; every test that needs
 * it is skipped when it is not installed), checked against the same model as the other
 * bindings and run under YCSB's own client; and its properties refused when wrong.
 */
class EtcdBindingTest {
  @TempDir
  Path dir;

  @Test
  void etcdBinding_matchesAModel() throws Exception {
    try (EtcdCluster etcd = startEtcd()) {
      YcsbBindingsTest.checkAgainstModel(new EtcdYcsbClient(), properties(etcd));
    }
  }

  @Test
  void etcdCluster_hasThreeMembers_thatReadAtOnceWhatAnotherWrote() throws Exception {
    List<ProcessHandle> processes;
    try (EtcdCluster etcd = startEtcd()) {
      List<EtcdGateway> members = etcd.endpoints().stream()
          .map(url -> new EtcdGateway(URI.create(url), Duration.ofSeconds(5))).toList();
      JsonNode list = members.get(0).call("/v3/cluster/member/list", EtcdGateway.object());
      assertEquals(3, list.path("members").size(), list.toString());
      Set<String> clientUrls = new HashSet<>();
      list.path("members").forEach(m -> clientUrls.add(m.path("clientURLs").get(0).asText()));
      assertEquals(Set.copyOf(etcd.endpoints()), clientUrls);

      byte[] key = YcsbCalls.bytes("k");
      members.get(0).put(key, YcsbCalls.bytes("v"));
      assertArrayEquals(YcsbCalls.bytes("v"), members.get(1).get(key)); // linearizable
      assertArrayEquals(YcsbCalls.bytes("v"), members.get(2).get(key));
      assertTrue(members.get(2).delete(key));
      assertNull(members.get(0).get(key));
      assertFalse(members.get(1).delete(key));

      processes = etcd.processes();
      assertEquals(3, processes.stream().filter(ProcessHandle::isAlive).map(ProcessHandle::pid)
          .distinct().count());
    }
    assertTrue(processes.stream().noneMatch(ProcessHandle::isAlive), "close() stops them all");
  }

  @Test
  void etcdBinding_runsUnderYcsbsClient() throws Exception {
    try (EtcdCluster etcd = startEtcd()) {
      Map<String, String> ycsb = new HashMap<>();
      properties(etcd).forEach((k, v) -> ycsb.put((String) k, (String) v));
      ycsb.putAll(Map.of("workload", "site.ycsb.workloads.CoreWorkload", "recordcount", "200",
          "operationcount", "1000", "readproportion", "0.5", "updateproportion", "0.5",
          "writeallfields", "true"));
      YcsbRun.Result load = YcsbRun.run(EtcdYcsbClient.class, true, 3, ycsb,
          dir.resolve("load.log"));
      assertEquals(200, load.get("INSERT", "Return=OK"));
      YcsbRun.Result run = YcsbRun.run(EtcdYcsbClient.class, false, 3, ycsb,
          dir.resolve("run.log"));
      assertEquals(1000, run.get("READ", "Return=OK") + run.get("UPDATE", "Return=OK"));
      assertEquals(0, run.notOk());
    }
  }

  @Test
  void etcdBinding_withoutEndpoints_isRefusedNamingTheProperty() {
    EtcdYcsbClient db = new EtcdYcsbClient();
    db.setProperties(new Properties());
    DBException e = assertThrows(DBException.class, db::init);
    assertTrue(e.getMessage().contains(EtcdYcsbClient.ENDPOINTS), e.getMessage());
  }

  @Test
  void etcdBinding_withABadEndpointOrDeadline_isRefusedNamingTheProperty() {
    for (Map<String, String> bad : List.of(
        Map.of(EtcdYcsbClient.ENDPOINTS, "127.0.0.1:2379"),
        Map.of(EtcdYcsbClient.ENDPOINTS, "http://127.0.0.1:2379",
            EtcdYcsbClient.DEADLINE_MS, "soon"),
        Map.of(EtcdYcsbClient.ENDPOINTS, "http://127.0.0.1:2379",
            EtcdYcsbClient.DEADLINE_MS, "0"))) {
      EtcdYcsbClient db = new EtcdYcsbClient();
      Properties p = new Properties();
      p.putAll(bad);
      db.setProperties(p);
      DBException e = assertThrows(DBException.class, db::init, bad.toString());
      String named = bad.containsKey(EtcdYcsbClient.DEADLINE_MS) ? EtcdYcsbClient.DEADLINE_MS
          : EtcdYcsbClient.ENDPOINTS;
      assertTrue(e.getMessage().contains(named), e.getMessage());
    }
  }

  @Test
  void etcdBinding_spreadsClientsOverTheEndpoints() throws DBException {
    Properties p = new Properties();
    p.setProperty(EtcdYcsbClient.ENDPOINTS, "http://127.0.0.1:1, http://127.0.0.1:2,"
        + "http://127.0.0.1:3");
    Set<URI> used = new HashSet<>();
    for (int i = 0; i < 3; i++) {
      EtcdYcsbClient db = new EtcdYcsbClient();
      db.setProperties(p);
      db.init(); // connects lazily: nothing listens there
      used.add(db.endpoint());
      db.cleanup();
    }
    assertEquals(3, used.size(), used.toString());
  }

  private EtcdCluster startEtcd() throws Exception {
    var program = EtcdCluster.find();
    assumeTrue(program.isPresent(), "etcd is not installed");
    return EtcdCluster.start(program.get(), dir.resolve("etcd"));
  }

  private static Properties properties(EtcdCluster etcd) {
    Properties p = new Properties();
    p.setProperty(EtcdYcsbClient.ENDPOINTS, String.join(",", etcd.endpoints()));
    return p;
  }
}

package org.fawnpack.kv.cluster;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.wire.ConnectionPool;
import org.fawnpack.kv.wire.MessageType;
import org.fawnpack.kv.wire.ProtocolLimits;
import org.fawnpack.kv.wire.StatsReport;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A new back-end (a child JVM) joins a running cluster of four while clients read and write:
 * the arcs it changes are frozen until their writes settle, every member splits its own files
 * where the joiner's virtual nodes cut them, the joiner copies only the arcs it belongs to, and
 * the members it displaced delete theirs. Each key's history must be linearizable, every
 * back-end's disk must hold exactly the files of the arcs it serves, and only the joiner may
 * have received bytes.
 */
class BackendJoinTest extends ChildClusterTest {
  private static final int BACKENDS = 4;
  @Override
  int backends() {
    return BACKENDS;
  }

  @Test
  void newBackendJoinsUnderWrites_membersSplitTheirFiles_onlyTheJoinerCopies() throws Exception {
    String joiner = "b" + (BACKENDS + 1);
    Ring before = cluster.currentRing();
    new CheckedWorkload(cluster).run(List.of(cluster.frontEnd.address()), () -> {
      cluster.addBackend(joiner);
      cluster.awaitRing(r -> r.member(joiner) != null && r.joining().isEmpty()
          && r.pending().isEmpty(), joiner + " joined and serves");
    });
    Ring after = cluster.currentRing();
    assertEquals(BACKENDS + 1, after.members().size(), after.toString());
    assertEquals(Set.of(), after.down(), after.toString());
    assertTrue(after.servesAnyArc(joiner), after.toString());
    cluster.awaitArcFilesMatchRing(after);
    // Only the joiner copied, and no more than the files it holds now (which grew since).
    for (Member m : before.members()) {
      assertTrue(cluster.zk.checkExists().forPath(ChildCluster.PATHS.copied(m.id())) == null,
          m.id() + " received a copy");
    }
    Map<String, String> report = words(new String(cluster.zk.getData()
        .forPath(ChildCluster.PATHS.copied(joiner)), StandardCharsets.UTF_8));
    long received = Long.parseLong(report.get("bytes"));
    long held = 0;
    for (String file : cluster.arcFilesOf(joiner)) {
      Path log = cluster.dataOf(joiner).resolve(file);
      held += Files.size(log) + Files.size(log.resolveSibling(file + ".idx"));
    }
    assertTrue(received > 0 && received <= held, "received " + received + " bytes, holds "
        + held);
    // STATS says the same: the joiner received what it reported, the others nothing.
    try (ConnectionPool pool = new ConnectionPool(Duration.ofSeconds(10),
        ProtocolLimits.MAX_FRAME_BYTES, cluster.secret)) {
      for (Member m : after.members()) {
        StatsReport stats = StatsReport.decode(pool.to(m).call(MessageType.STATS,
            after.epoch(), null, Duration.ofSeconds(10)));
        assertEquals(m.id().equals(joiner) ? received : 0, stats.bytesCopiedIn(),
            m.id() + "'s STATS");
      }
    }
    long splits = 0;
    for (Member m : before.members()) {
      splits += Files.readString(Path.of(cluster.backend(m.id()).logFile())).lines()
          .filter(l -> l.contains("split its file of")).count();
    }
    assertTrue(splits >= 1, "some member split a file its arc lost part of");
  }

  private static Map<String, String> words(String text) {
    String[] w = text.split(" ");
    Map<String, String> fields = new java.util.TreeMap<>();
    for (int i = 0; i + 1 < w.length; i += 2) {
      fields.put(w[i], w[i + 1]);
    }
    return fields;
  }
}

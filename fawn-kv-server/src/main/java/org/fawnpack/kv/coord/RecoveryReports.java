package org.fawnpack.kv.coord;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.curator.framework.CuratorFramework;
import org.fawnpack.kv.zookeeper.ClusterPaths;
import org.fawnpack.kv.zookeeper.Znodes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What each back-end holds of the orphaned arcs whose last chain named it: {@code
 * recovery/<id>}, ephemeral (a report holds for one run), one line per arc, "arc-end-hex
 * last-sequence", the sequence -1 when it has no file for the arc (a disk replaced). The
 * coordinator recovers an orphaned arc once every member of its last chain has reported it,
 * from the one whose file has the most writes ({@link #sources}).
 */
public final class RecoveryReports {
  private static final Logger LOG = LoggerFactory.getLogger(RecoveryReports.class);
  /** The sequence reported for an arc whose file a back-end does not have. */
  public static final long NO_FILE = -1;

  private RecoveryReports() {}

  /** Back-end {@code id} holds, of each orphaned arc, its file up to the sequence given. */
  public static void write(CuratorFramework zk, ClusterPaths paths, String id,
      Map<Long, Long> lastSequences) throws IOException {
    StringBuilder text = new StringBuilder();
    new TreeMap<>(lastSequences).forEach((end, last) -> text.append(String.format("%016x",
        end)).append(' ').append(last).append('\n'));
    Znodes.writeEphemeral(zk, paths.recovery(id), text.toString()
        .getBytes(StandardCharsets.UTF_8));
  }

  /** Back-end id to its report (arc end to last sequence); one that does not parse is left out. */
  static Map<String, Map<Long, Long>> read(CuratorFramework zk, ClusterPaths paths)
      throws IOException {
    Map<String, Map<Long, Long>> all = new HashMap<>();
    Znodes.children(zk, paths.recoveries()).forEach((id, data) -> {
      try {
        all.put(id, parse(new String(data, StandardCharsets.UTF_8)));
      } catch (IllegalArgumentException e) {
        LOG.error("{} left out: {}", paths.recovery(id), e.getMessage());
      }
    });
    return all;
  }

  static Map<Long, Long> parse(String text) {
    Map<Long, Long> arcs = new HashMap<>();
    for (String line : text.split("\n")) {
      if (line.isBlank()) {
        continue;
      }
      String[] words = line.trim().split(" ");
      if (words.length != 2 || !words[0].matches("[0-9a-f]{16}")) {
        throw new IllegalArgumentException("line '" + line + "' is not 'arc-end-hex sequence'");
      }
      arcs.put(Long.parseUnsignedLong(words[0], 16), Long.parseLong(words[1]));
    }
    return arcs;
  }

  /** What the coordinator can decide of one orphaned arc. */
  public record Decision(Optional<String> source, List<String> waitingFor, boolean lost) {}

  /**
   * Of an arc orphaned with last chain {@code lastChain}: once each member reported it (from
   * {@code reports}), the one whose file holds the most writes (the first in chain order among
   * equals: equal lengths are the same prefix of one history); none when no member has a file
   * (lost); until then, who it waits for.
   */
  public static Decision decide(long arcEnd, List<String> lastChain,
      Map<String, Map<Long, Long>> reports) {
    List<String> waiting = lastChain.stream().filter(id -> !reports.containsKey(id)
        || !reports.get(id).containsKey(arcEnd)).toList();
    if (!waiting.isEmpty()) {
      return new Decision(Optional.empty(), waiting, false);
    }
    String best = null;
    long bestLast = NO_FILE;
    for (String id : lastChain) {
      long last = reports.get(id).get(arcEnd);
      if (last > bestLast) {
        best = id;
        bestLast = last;
      }
    }
    return new Decision(Optional.ofNullable(best), List.of(), best == null);
  }
}

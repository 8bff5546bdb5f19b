package org.fawnpack.kv.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.apache.curator.framework.CuratorFramework;
import org.fawnpack.kv.scan.RangeScan;
import org.fawnpack.kv.scan.RingSource;
import org.fawnpack.kv.scan.ScanPage;
import org.fawnpack.kv.store.KeyRange;
import org.fawnpack.kv.wire.ConnectionPool;
import org.fawnpack.kv.wire.ProtocolLimits;
import org.fawnpack.kv.zookeeper.ClusterPaths;
import org.fawnpack.kv.zookeeper.RingStore;

/**
 * {@code fawn kv scan}: every entry of the store (or those whose keys start with a prefix),
 * read from the arcs' tails in ring order ({@link RangeScan}), printed as {@code key TAB value},
 * keys only, or counted; a summary line goes to the error stream.
 */
final class ScanCommand {
  private final PrintStream out;
  private final PrintStream err;

  ScanCommand(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  int run(KvSettings kv, KvCommand.CommandLine line) throws IOException {
    line.noPositionals();
    byte[] prefix = line.option("--prefix", "").getBytes(StandardCharsets.UTF_8);
    String print = line.option("--print", "entries");
    if (!print.equals("entries") && !print.equals("keys") && !print.equals("count")) {
      throw new IllegalArgumentException("--print is entries, keys or count, not '" + print
          + "'");
    }
    int limit = line.intOption("--limit", Integer.MAX_VALUE, 1, Integer.MAX_VALUE);
    RangeScan.Options options = RangeScan.Options.defaults(kv.timeouts()).withPrefix(prefix);
    long start = System.nanoTime();
    long entries = 0;
    long bytes = 0;
    try (CuratorFramework zk = KvNodes.session(kv, "scan");
        RingSource.Watched rings = RingSource.watching(new RingStore(zk,
            new ClusterPaths(kv.cluster())));
        ConnectionPool pool = new ConnectionPool(Duration.ofMillis(kv.requestTimeoutMs()),
            ProtocolLimits.MAX_FRAME_BYTES, kv.secret())) {
      RangeScan scan = new RangeScan(rings, pool, KeyRange.wholeRing(), options);
      for (ScanPage.ScanEntry e = scan.next(); e != null && entries < limit; e = scan.next()) {
        entries++;
        bytes += e.key().length + e.value().length;
        if (!print.equals("count")) {
          out.write(e.key());
          if (print.equals("entries")) {
            out.write('\t');
            out.write(e.value());
          }
          out.write('\n');
        }
      }
      if (print.equals("count")) {
        out.println(entries);
      }
      out.flush();
      err.printf("fawn kv scan: %d entries, %d bytes of keys and values, %d pages, %d pages"
          + " asked again, %.1f s%n", entries, bytes, scan.pages(), scan.retries(),
          (System.nanoTime() - start) / 1e9);
    }
    return KvCommand.EXIT_OK;
  }
}

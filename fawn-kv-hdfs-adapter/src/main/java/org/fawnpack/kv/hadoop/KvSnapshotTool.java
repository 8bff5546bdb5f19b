package org.fawnpack.kv.hadoop;

import java.io.IOException;
import java.io.PrintStream;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.fawnpack.kv.config.KvKeys;

/**
 * {@code fawn kv snapshot --to DIR} (also {@code hadoop jar fawn-jobs.jar kvsnapshot --to DIR}):
 * an offline snapshot of a FAWN-KV cluster into a directory of any Hadoop file system, read
 * later by {@link FawnKvSnapshotInputFormat} with no FAWN-KV node running. Prints a line per
 * arc and a total; exit 0 done, 1 failed, 2 usage.
 */
public final class KvSnapshotTool extends Configured implements Tool {
  static final String USAGE = "Usage: fawn kv [-Dfawn.kv.<key>=<value> ...] snapshot --to DIR\n"
      + "  copies every arc's datastore files from its tail into DIR (HDFS or any Hadoop file\n"
      + "  system; it must not exist or be empty) while the store stays online, then writes\n"
      + "  DIR/MANIFEST; needs -D" + KvKeys.ZOOKEEPER_QUORUM.name() + "=HOST:PORT,...";

  private final PrintStream out;
  private final PrintStream err;

  public KvSnapshotTool() {
    this(System.out, System.err);
  }

  KvSnapshotTool(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new KvSnapshotTool(), args));
  }

  @Override
  public int run(String[] args) {
    if (args.length != 2 || !args[0].equals("--to") || args[1].isBlank()) {
      err.println(args.length == 0 ? USAGE : "fawn kv snapshot: expected --to DIR, got "
          + String.join(" ", args) + "\n" + USAGE);
      return 2;
    }
    if (getConf().get(KvKeys.ZOOKEEPER_QUORUM.name()) == null) {
      err.println("fawn kv snapshot: no FAWN-KV cluster named: set -D"
          + KvKeys.ZOOKEEPER_QUORUM.name() + "=HOST:PORT[,...]");
      return 2;
    }
    long start = System.nanoTime();
    try {
      SnapshotManifest manifest = new KvSnapshotWriter(getConf(), new Credentials())
          .write(new Path(args[1]));
      long bytes = 0;
      out.println("range\tfile\tlog bytes\tmax sequence\tcrc32c");
      for (SnapshotManifest.Arc arc : manifest.arcs()) {
        out.printf("%s\t%s\t%d\t%d\t%08x%n", arc.range(), arc.file(), arc.logBytes(),
            arc.maxSequence(), arc.crc32c());
        bytes += arc.logBytes() + arc.checkpointBytes();
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      out.printf("snapshot of cluster %s (ring epoch %d) in %s: %d arcs, %d bytes in %.1f s"
          + " (%.0f MB/s)%n", manifest.cluster(), manifest.epoch(), args[1],
          manifest.arcs().size(), bytes, seconds, bytes / 1e6 / seconds);
      return 0;
    } catch (IOException | RuntimeException e) {
      err.println("fawn kv snapshot: " + e.getMessage());
      return 1;
    }
  }
}

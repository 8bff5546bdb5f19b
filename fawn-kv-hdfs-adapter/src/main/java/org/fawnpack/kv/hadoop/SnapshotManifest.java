package org.fawnpack.kv.hadoop;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.fawnpack.kv.store.KeyRange;

/**
 * What an offline snapshot holds, in the text file {@code MANIFEST} of its directory: the
 * cluster, the ring epoch and the time it was taken, then a tab-separated line per arc (ring
 * range, log file, its bytes, its index checkpoint's bytes, the arc's highest sequence number
 * and the CRC32C of the log). Written last, by a rename, so a directory without it is a
 * snapshot that did not finish.
 *
 * <pre>
 * # FAWN-KV snapshot, format 1
 * cluster  default
 * epoch    7
 * taken    2026-11-26T19:02:11Z
 * arc      0000000000000000  3fffffffffffffff  arc-3fffffffffffffff.fds  1048576  393264  5012  9a0c11f3
 * </pre>
 */
record SnapshotManifest(String cluster, long epoch, Instant taken, List<Arc> arcs) {
  static final String FILE = "MANIFEST";
  private static final String FORMAT_LINE = "# FAWN-KV snapshot, format 1";

  /** One arc's files in the snapshot. */
  record Arc(KeyRange range, String file, long logBytes, long checkpointBytes,
      long maxSequence, int crc32c) {
    /** The index checkpoint's file name, beside the log. */
    String checkpointFile() {
      return file + ".idx";
    }
  }

  SnapshotManifest {
    arcs = List.copyOf(arcs);
  }

  /** Writes the manifest into {@code dir}: to a temporary name, then renamed. */
  void write(FileSystem fs, Path dir) throws IOException {
    Path part = new Path(dir, FILE + ".writing");
    try (FSDataOutputStream out = fs.create(part, false)) {
      write(out);
    }
    if (!fs.rename(part, new Path(dir, FILE))) {
      throw new IOException("could not rename " + part + " to " + FILE);
    }
  }

  private void write(OutputStream out) throws IOException {
    StringBuilder text = new StringBuilder(FORMAT_LINE).append('\n')
        .append("cluster\t").append(cluster).append('\n')
        .append("epoch\t").append(epoch).append('\n')
        .append("taken\t").append(taken).append('\n');
    for (Arc a : arcs) {
      text.append(String.format("arc\t%016x\t%016x\t%s\t%d\t%d\t%d\t%08x%n",
          a.range().startExclusive(), a.range().endInclusive(), a.file(), a.logBytes(),
          a.checkpointBytes(), a.maxSequence(), a.crc32c()));
    }
    out.write(text.toString().getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Reads the manifest of snapshot directory {@code dir}.
   *
   * @throws IOException naming the file and line when it is missing or malformed
   */
  static SnapshotManifest read(Path dir, Configuration conf) throws IOException {
    Path file = new Path(dir, FILE);
    FileSystem fs = file.getFileSystem(conf);
    if (!fs.exists(file)) {
      throw new IOException("no FAWN-KV snapshot at " + fs.makeQualified(dir) + ": " + FILE
          + " is missing (a snapshot that did not finish has none)");
    }
    String cluster = null;
    long epoch = -1;
    Instant taken = null;
    List<Arc> arcs = new ArrayList<>();
    try (BufferedReader in = new BufferedReader(new InputStreamReader(fs.open(file),
        StandardCharsets.UTF_8))) {
      int number = 0;
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        number++;
        if (number == 1 && !line.equals(FORMAT_LINE)) {
          throw malformed(file, number, "expected '" + FORMAT_LINE + "'");
        }
        if (line.startsWith("#") || line.isBlank()) {
          continue;
        }
        String[] f = line.split("\t");
        try {
          switch (f[0]) {
            case "cluster" -> cluster = field(f, 2, file, number)[1];
            case "epoch" -> epoch = Long.parseLong(field(f, 2, file, number)[1]);
            case "taken" -> taken = Instant.parse(field(f, 2, file, number)[1]);
            case "arc" -> {
              field(f, 8, file, number);
              arcs.add(new Arc(new KeyRange(Long.parseUnsignedLong(f[1], 16),
                  Long.parseUnsignedLong(f[2], 16)), f[3], Long.parseLong(f[4]),
                  Long.parseLong(f[5]), Long.parseLong(f[6]), Integer.parseUnsignedInt(f[7], 16)));
            }
            default -> throw malformed(file, number, "unknown field '" + f[0] + "'");
          }
        } catch (RuntimeException e) {
          throw malformed(file, number, e.getMessage());
        }
      }
    }
    if (cluster == null || epoch < 0 || taken == null || arcs.isEmpty()) {
      throw new IOException(file + ": incomplete (needs cluster, epoch, taken and at least one"
          + " arc line)");
    }
    return new SnapshotManifest(cluster, epoch, taken, arcs);
  }

  private static String[] field(String[] f, int count, Path file, int line) throws IOException {
    if (f.length != count) {
      throw malformed(file, line, "expected " + count + " tab-separated fields, found "
          + f.length);
    }
    return f;
  }

  private static IOException malformed(Path file, int line, String why) {
    return new IOException(file + " line " + line + ": " + why);
  }
}

package org.fawnpack.minicluster;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.fawnpack.energy.NodeHistoryFormat;

/**
 * Whether the NodeManagers' own energy histories reach a moment: each node's newest segment
 * holds a sample ending at or after it. Read as a report would, by file names and lines.
 */
final class NodeHistoryReach {
  private NodeHistoryReach() {}

  /** True when {@code nodeManagers} node directories under {@code nodes} all reach it. */
  static boolean allReach(FileSystem fs, Path nodes, int nodeManagers, long untilMillis)
      throws IOException {
    if (!fs.exists(nodes)) {
      return false;
    }
    FileStatus[] dirs = fs.listStatus(nodes);
    if (dirs.length < nodeManagers) {
      return false;
    }
    for (FileStatus dir : dirs) {
      long newest = -1;
      Path newestFile = null;
      for (FileStatus segment : fs.listStatus(dir.getPath())) {
        long first = NodeHistoryFormat.firstEndMillis(segment.getPath().getName());
        if (first > newest) {
          newest = first;
          newestFile = segment.getPath();
        }
      }
      if (newestFile == null || lastSampleMillis(fs, newestFile) < untilMillis) {
        return false;
      }
    }
    return true;
  }

  private static long lastSampleMillis(FileSystem fs, Path segment) throws IOException {
    long last = -1;
    try (BufferedReader in = new BufferedReader(new InputStreamReader(fs.open(segment),
        StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        if (line.startsWith("sample,")) {
          last = Long.parseLong(line.split(",", 3)[1]);
        }
      }
    }
    return last;
  }
}

package org.fawnpack.energy.service;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.fawnpack.energy.NodeHistoryFormat;
import org.fawnpack.energy.cpu.NodeUtilisation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the node's own history, busy or idle ({@link NodeHistoryFormat}): at each roll, the
 * samples taken since the last segment written, as a new segment under
 * {@code <history dir>/nodes/<node>/}; and deletes its segments older than the keep time. A
 * roll that fails (the file system down) leaves its samples for the next one, as far as the
 * in-memory ring still holds them. What a job's cluster energy is summed from: application
 * history files exist only on nodes that ran one of its containers.
 */
final class NodeHistoryWriter {
  private static final Logger LOG = LoggerFactory.getLogger(NodeHistoryWriter.class);
  private static final int MAX_NAME_ATTEMPTS = 64;

  private final Configuration conf;
  private final Path nodeDir;
  private final String node;
  private final String role;
  private final int intervalMillis;
  private final int rollMillis;
  private final String meters;
  private final BooleanSupplier estimated;
  private final long keepMillis;
  private long writtenThroughSeq = -1; // guarded by this

  NodeHistoryWriter(Configuration conf, String historyDir, String node, String role,
      int intervalMillis, int rollMillis, String meters, BooleanSupplier estimated,
      long keepMillis) {
    this.role = role;
    this.rollMillis = rollMillis;
    this.conf = conf;
    this.nodeDir = new Path(new Path(new Path(historyDir), NodeHistoryFormat.NODES_DIR), node);
    this.node = node;
    this.intervalMillis = intervalMillis;
    this.meters = meters;
    this.estimated = estimated;
    this.keepMillis = keepMillis;
  }

  /**
   * Writes the samples of {@code history} not written yet as one segment, then deletes the
   * segments older than the keep time ({@code nowMillis} minus it); returns the segment, or
   * null when there was nothing new.
   */
  synchronized Path roll(PowerHistory history, long nowMillis) throws IOException {
    List<PowerHistory.NodeRow> rows = history.after(writtenThroughSeq);
    Path written = null;
    if (!rows.isEmpty()) {
      written = write(rows);
      writtenThroughSeq = rows.get(rows.size() - 1).seq();
    }
    deleteOlderThan(nowMillis - keepMillis);
    return written;
  }

  private Path write(List<PowerHistory.NodeRow> rows) throws IOException {
    FileSystem fs = nodeDir.getFileSystem(conf);
    fs.mkdirs(nodeDir);
    long first = rows.get(0).millis();
    for (int attempt = 1; attempt <= MAX_NAME_ATTEMPTS; attempt++) {
      Path file = new Path(nodeDir, NodeHistoryFormat.segmentName(first, attempt));
      FSDataOutputStream stream;
      try {
        stream = fs.create(file, false);
      } catch (FileAlreadyExistsException e) {
        continue; // another collector of this name (a second NodeManager on the host)
      } catch (IOException e) {
        if (fs.exists(file)) {
          continue; // HDFS says AlreadyBeingCreated for a racing writer
        }
        throw e;
      }
      try (Writer out = new OutputStreamWriter(stream, StandardCharsets.UTF_8)) {
        out.write(NodeHistoryFormat.header(node, role, intervalMillis, rollMillis, meters,
            estimated.getAsBoolean()));
        for (PowerHistory.NodeRow r : rows) {
          NodeUtilisation.Sample u = r.utilisation();
          out.write(NodeHistoryFormat.sample(r.millis(), r.watts(), r.nodeMicrojoules(),
              r.attributedMicrojoules(), r.gap(), u.cpuShare(), u.memoryUsedBytes(),
              u.diskReadBytes(), u.diskWrittenBytes(), u.netReceivedBytes(),
              u.netSentBytes()));
        }
      }
      LOG.debug("Node history of {}: {} samples -> {}", node, rows.size(), file);
      return file;
    }
    throw new IOException("no free segment name for node " + node + " under " + nodeDir
        + " after " + MAX_NAME_ATTEMPTS + " attempts");
  }

  /**
   * Deletes this node's segments whose first sample ended before {@code cutoffMillis} and
   * that a later segment follows (so the newest is kept whatever its age).
   */
  private void deleteOlderThan(long cutoffMillis) throws IOException {
    FileSystem fs = nodeDir.getFileSystem(conf);
    FileStatus[] segments;
    try {
      segments = fs.listStatus(nodeDir);
    } catch (FileNotFoundException e) {
      return;
    }
    long newest = -1;
    for (FileStatus s : segments) {
      newest = Math.max(newest, NodeHistoryFormat.firstEndMillis(s.getPath().getName()));
    }
    for (FileStatus s : segments) {
      long first = NodeHistoryFormat.firstEndMillis(s.getPath().getName());
      if (first >= 0 && first < cutoffMillis && first < newest) {
        fs.delete(s.getPath(), false);
      }
    }
  }
}

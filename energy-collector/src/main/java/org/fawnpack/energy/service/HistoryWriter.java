package org.fawnpack.energy.service;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes an application's history file to the cluster file system when the application stops.
 * Runs off the NodeManager's event thread. Several NodeManagers on one host would pick the same
 * name: those in one JVM (mini clusters) get distinct names up front ({@link NodeNames}); across
 * processes the file is created only if absent, and a taken name moves on to {@code <node>-2.csv}.
 */
final class HistoryWriter {
  private static final Logger LOG = LoggerFactory.getLogger(HistoryWriter.class);
  private static final int MAX_NAME_ATTEMPTS = 64;

  private final Configuration conf;
  private final Path root;
  private final String node;

  HistoryWriter(Configuration conf, String historyDir, String node) {
    this.conf = conf;
    this.root = new Path(historyDir);
    this.node = node;
  }

  /** Writes the file; returns its path. */
  Path write(String applicationId, int intervalMillis, String meters, boolean estimated,
      List<PowerHistory.Row> rows, List<ContainerRecord> containers) throws IOException {
    Path dir = new Path(root, applicationId);
    FileSystem fs = dir.getFileSystem(conf);
    fs.mkdirs(dir);
    for (int attempt = 1; attempt <= MAX_NAME_ATTEMPTS; attempt++) {
      Path file = new Path(dir, attempt == 1 ? node + ".csv" : node + "-" + attempt + ".csv");
      if (fs.exists(file)) {
        continue; // checked first only to keep the NameNode's log quiet; create() decides
      }
      FSDataOutputStream stream;
      try {
        stream = fs.create(file, false);
      } catch (FileAlreadyExistsException e) {
        continue;
      } catch (IOException e) {
        // Another writer may have created it between exists() and create(); HDFS then says
        // AlreadyBeingCreated, not FileAlreadyExists. Anything else is a real failure.
        if (fs.exists(file)) {
          continue;
        }
        throw e;
      }
      try (Writer out = new OutputStreamWriter(stream, StandardCharsets.UTF_8)) {
        HistoryFile.write(out, node, applicationId, intervalMillis, meters, estimated, rows,
            containers);
      }
      LOG.info("Energy history of {} on {}: {} samples, {} containers -> {}", applicationId, node,
          rows.size(), containers.size(), file);
      return file;
    }
    throw new IOException("no free file name for node " + node + " under " + dir + " after "
        + MAX_NAME_ATTEMPTS + " attempts");
  }
}

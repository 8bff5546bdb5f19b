package org.fawnpack.kv.hadoop;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;
import java.util.zip.CheckedInputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.fawnpack.kv.store.EngineKeys;
import org.fawnpack.kv.store.SnapshotStream;
import org.fawnpack.kv.store.StoreView;

/**
 * Reads a split's arcs of a snapshot one after another: each arc's index checkpoint whole, then
 * its log as one sequential stream ({@link SnapshotStream}), each put live in the copy given
 * once; each log's CRC32C is checked against the manifest's when it ends, so a copy altered
 * after it was taken fails the map rather than feed it wrong records. Progress is log bytes
 * read over the split's log bytes.
 */
final class SnapshotRecordReader extends RecordReader<BytesWritable, BytesWritable> {
  private final BytesWritable key = new BytesWritable();
  private final BytesWritable value = new BytesWritable();
  private List<SnapshotManifest.Arc> arcs;
  private Path dir;
  private FileSystem fs;
  private byte[] prefix;
  private Counter bytesRead;
  private long splitBytes;
  private int next;
  /** Log bytes of the arcs finished. */
  private long finishedBytes;
  private SnapshotManifest.Arc arc;
  private Path logPath;
  private SnapshotStream stream;
  private CRC32C crc;
  private boolean done;

  @Override
  public void initialize(InputSplit split, TaskAttemptContext context) throws IOException {
    SnapshotSplit s = (SnapshotSplit) split;
    Configuration conf = context.getConfiguration();
    arcs = s.arcs();
    splitBytes = s.getLength();
    dir = new Path(s.dir());
    fs = dir.getFileSystem(conf);
    String p = KvInputKeys.read(KvInputKeys.KEY_PREFIX, conf);
    prefix = p == null ? new byte[0] : p.getBytes(StandardCharsets.UTF_8);
    bytesRead = context.getCounter(FawnKvInputCounter.BYTES_READ);
  }

  /** Opens the next arc's files; false when every arc was read. */
  private boolean openNextArc() throws IOException {
    if (next == arcs.size()) {
      return false;
    }
    arc = arcs.get(next++);
    logPath = new Path(dir, arc.file());
    crc = new CRC32C();
    InputStream log = new CheckedInputStream(fs.open(logPath), crc);
    try {
      stream = SnapshotStream.open(log, arc.logBytes(), fs.open(new Path(dir,
          arc.checkpointFile())), arc.checkpointBytes(), logPath.toString());
    } catch (IOException | RuntimeException e) {
      log.close();
      throw e;
    }
    return true;
  }

  @Override
  public boolean nextKeyValue() throws IOException {
    while (!done) {
      if (stream == null && !openNextArc()) {
        done = true;
        return false;
      }
      for (StoreView.Entry e = stream.next(); e != null; e = stream.next()) {
        // The engine's keys are the ring position, then the user's key (EngineKeys).
        if (arc.range().contains(e.key()) && startsWith(e.key(), EngineKeys.POSITION_BYTES,
            prefix)) {
          key.set(e.key(), EngineKeys.POSITION_BYTES,
              e.key().length - EngineKeys.POSITION_BYTES);
          value.set(e.value(), 0, e.value().length);
          bytesRead.increment(key.getLength() + (long) e.value().length);
          return true;
        }
      }
      finishArc();
    }
    return false;
  }

  private void finishArc() throws IOException {
    stream.close();
    stream = null;
    finishedBytes += arc.logBytes();
    if ((int) crc.getValue() != arc.crc32c()) {
      throw new IOException(logPath + ": CRC32C " + Integer.toHexString((int) crc.getValue())
          + ", the snapshot's manifest says " + Integer.toHexString(arc.crc32c())
          + ": the copy changed after it was taken");
    }
  }

  private static boolean startsWith(byte[] key, int from, byte[] prefix) {
    return key.length - from >= prefix.length
        && Arrays.equals(key, from, from + prefix.length, prefix, 0, prefix.length);
  }

  @Override
  public BytesWritable getCurrentKey() {
    return key;
  }

  @Override
  public BytesWritable getCurrentValue() {
    return value;
  }

  @Override
  public float getProgress() {
    if (done) {
      return 1f;
    }
    long current = stream == null ? 0 : stream.offset();
    return (float) (finishedBytes + current) / splitBytes;
  }

  @Override
  public void close() throws IOException {
    if (stream != null) {
      stream.close();
    }
  }
}

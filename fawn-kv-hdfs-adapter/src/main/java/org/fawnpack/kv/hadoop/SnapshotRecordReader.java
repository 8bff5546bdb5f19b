package org.fawnpack.kv.hadoop;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
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
import org.fawnpack.kv.backend.EngineKeys;
import org.fawnpack.kv.store.SnapshotStream;
import org.fawnpack.kv.store.StoreView;

/**
 * Reads one arc of a snapshot: its index checkpoint whole, then its log as one sequential
 * stream ({@link SnapshotStream}), each put live in the copy given once; the log's CRC32C is
 * checked against the manifest's at the end, so a copy altered after it was taken fails the
 * map rather than feed it wrong records. Progress is log bytes read over the log's length.
 */
final class SnapshotRecordReader extends RecordReader<BytesWritable, BytesWritable> {
  private SnapshotManifest.Arc arc;
  private Path logPath;
  private SnapshotStream stream;
  private CRC32C crc;
  private byte[] prefix;
  private Counter bytesRead;
  private final BytesWritable key = new BytesWritable();
  private final BytesWritable value = new BytesWritable();
  private boolean done;

  @Override
  public void initialize(InputSplit split, TaskAttemptContext context) throws IOException {
    SnapshotSplit s = (SnapshotSplit) split;
    Configuration conf = context.getConfiguration();
    arc = s.arc();
    Path dir = new Path(s.dir());
    FileSystem fs = dir.getFileSystem(conf);
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
    String p = KvInputKeys.read(KvInputKeys.KEY_PREFIX, conf);
    prefix = p == null ? new byte[0] : p.getBytes(StandardCharsets.UTF_8);
    bytesRead = context.getCounter(FawnKvInputCounter.BYTES_READ);
  }

  @Override
  public boolean nextKeyValue() throws IOException {
    if (done) {
      return false;
    }
    for (StoreView.Entry e = stream.next(); e != null; e = stream.next()) {
      // The engine's keys are the ring position, then the user's key (EngineKeys).
      if (arc.range().contains(e.key()) && startsWith(e.key(), EngineKeys.POSITION_BYTES,
          prefix)) {
        key.set(e.key(), EngineKeys.POSITION_BYTES, e.key().length - EngineKeys.POSITION_BYTES);
        value.set(e.value(), 0, e.value().length);
        bytesRead.increment(key.getLength() + (long) e.value().length);
        return true;
      }
    }
    done = true;
    if ((int) crc.getValue() != arc.crc32c()) {
      throw new IOException(logPath + ": CRC32C " + Integer.toHexString((int) crc.getValue())
          + ", the snapshot's manifest says " + Integer.toHexString(arc.crc32c())
          + ": the copy changed after it was taken");
    }
    return false;
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
    return done ? 1f : stream == null ? 0f : (float) stream.offset() / arc.logBytes();
  }

  @Override
  public void close() throws IOException {
    if (stream != null) {
      stream.close();
    }
  }
}

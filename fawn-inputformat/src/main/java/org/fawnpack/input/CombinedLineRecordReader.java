package org.fawnpack.input;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.CompressionCodecFactory;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.input.CombineFileSplit;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.mapreduce.lib.input.LineRecordReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the lines of every chunk of a {@link CombineFileSplit} in turn, one Hadoop
 * {@link LineRecordReader} per chunk, so the line length cap, custom record delimiters and
 * compressed input behave exactly as in TextInputFormat.
 *
 * <p>A compressed file that cannot be decoded fails the task with an error naming the file, or,
 * with {@code fawn.input.skip-corrupt=true}, is skipped (from the corrupt point on) and counted.
 *
 * @param <K> the key type; the {@link KeyMaker} fills it from the chunk's path and line offset
 */
final class CombinedLineRecordReader<K> extends RecordReader<K, Text> {

  private static final Logger LOG = LoggerFactory.getLogger(CombinedLineRecordReader.class);

  /** Builds the key of a line from its file and byte offset. */
  interface KeyMaker<K> {
    K newKey();

    void set(K key, Path file, long offset);
  }

  private final KeyMaker<K> keyMaker;
  private CombineFileSplit split;
  private TaskAttemptContext context;
  private CompressionCodecFactory codecs;
  private byte[] recordDelimiter;
  private boolean skipCorrupt;

  private int chunkIndex = -1;
  private long bytesOfFinishedChunks;
  private LineRecordReader lines;
  private CompressionCodec chunkCodec;
  /** The current chunk was abandoned as corrupt (fawn.input.skip-corrupt). */
  private boolean chunkSkipped;
  private K key;

  CombinedLineRecordReader(KeyMaker<K> keyMaker) {
    this.keyMaker = keyMaker;
  }

  @Override
  public void initialize(InputSplit genericSplit, TaskAttemptContext context) throws IOException {
    this.split = (CombineFileSplit) genericSplit;
    this.context = context;
    Configuration conf = context.getConfiguration();
    this.codecs = new CompressionCodecFactory(conf);
    this.skipCorrupt = FawnInputConfig.skipCorrupt(conf);
    String delimiter = conf.get("textinputformat.record.delimiter");
    this.recordDelimiter = delimiter == null ? null : delimiter.getBytes(StandardCharsets.UTF_8);
    this.key = keyMaker.newKey();
  }

  @Override
  public boolean nextKeyValue() throws IOException {
    while (true) {
      if (lines == null && !openNextChunk()) {
        return false;
      }
      if (readLine()) {
        keyMaker.set(key, split.getPath(chunkIndex), lines.getCurrentKey().get());
        return true;
      }
      if (!chunkSkipped) {
        context.getCounter(FawnInputCounter.BYTES_READ).increment(split.getLength(chunkIndex));
      }
      closeChunk();
    }
  }

  /** One line from the current chunk; false at its end or when a corrupt file is skipped. */
  private boolean readLine() throws IOException {
    try {
      return lines.nextKeyValue();
    } catch (IOException e) {
      handleUnreadable(e);
      return false;
    }
  }

  private boolean openNextChunk() throws IOException {
    while (++chunkIndex < split.getNumPaths()) {
      Path file = split.getPath(chunkIndex);
      chunkCodec = codecs.getCodec(file);
      chunkSkipped = false;
      FileSplit chunk = new FileSplit(file, split.getOffset(chunkIndex),
          split.getLength(chunkIndex), null);
      LineRecordReader reader = new LineRecordReader(recordDelimiter);
      lines = reader;
      try {
        reader.initialize(chunk, context);
        if (split.getOffset(chunkIndex) == 0) { // a file cut into chunks counts once
          context.getCounter(FawnInputCounter.FILES_READ).increment(1);
        }
        return true;
      } catch (IOException e) {
        handleUnreadable(e); // a gzip header is read, and may fail, on open
        closeChunk();
      }
    }
    return false;
  }

  /**
   * Uncompressed files rethrow as they are (the attempt is retried). A compressed file that
   * fails to decode is corrupt: it fails the task naming the file, or is skipped and counted.
   */
  private void handleUnreadable(IOException e) throws IOException {
    if (chunkCodec == null) {
      throw e;
    }
    Path file = split.getPath(chunkIndex);
    String what = "Cannot decode " + chunkCodec.getClass().getSimpleName() + " file " + file
        + ": " + e;
    if (!skipCorrupt) {
      throw new CorruptInputException(what + " (set " + FawnInputConfig.SKIP_CORRUPT
          + "=true to skip such files)", file, e);
    }
    LOG.warn("{}; skipping the rest of it ({}=true)", what, FawnInputConfig.SKIP_CORRUPT);
    context.getCounter(FawnInputCounter.CORRUPT_FILES_SKIPPED).increment(1);
    chunkSkipped = true;
  }

  private void closeChunk() throws IOException {
    if (lines != null) {
      bytesOfFinishedChunks += split.getLength(chunkIndex);
      LineRecordReader closing = lines;
      lines = null;
      closing.close();
    }
  }

  @Override
  public K getCurrentKey() {
    return key;
  }

  @Override
  public Text getCurrentValue() {
    return lines == null ? null : lines.getCurrentValue();
  }

  /** Fraction of the split's bytes consumed, counting the current chunk's own progress. */
  @Override
  public float getProgress() throws IOException {
    long total = split.getLength();
    if (total == 0) {
      return chunkIndex >= split.getNumPaths() ? 1f : 0f;
    }
    float current = lines == null ? 0f : lines.getProgress() * split.getLength(chunkIndex);
    return Math.min(1f, (bytesOfFinishedChunks + current) / total);
  }

  @Override
  public void close() throws IOException {
    if (lines != null) {
      lines.close();
      lines = null;
    }
  }
}

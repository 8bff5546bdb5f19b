package org.fawnpack.jobs.md5;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.input.CombineFileSplit;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormatCounter;
import org.fawnpack.input.CorruptInputException;

/**
 * Reads the 4-byte records of a {@link CombineFileSplit}'s chunks in order, through a 64 KiB
 * buffer, into one reused {@link BytesWritable}: nothing is allocated per record. A chunk that
 * does not start or end on a record boundary, or a file that ends inside a record (it shrank
 * after the split was made), fails with the file and the offset.
 */
public final class ValueRecordReader extends RecordReader<NullWritable, BytesWritable> {
  private static final int BUFFER_BYTES = 64 * 1024;

  private final byte[] buffer = new byte[BUFFER_BYTES];
  private final BytesWritable value = new BytesWritable(new byte[ValueRecords.RECORD_BYTES]);
  private CombineFileSplit split;
  private Configuration conf;
  private int chunk = -1;
  private FSDataInputStream in;
  private long chunkOffset; // file offset of buffer[0]
  private long chunkLeft;   // bytes of the chunk not yet in the buffer
  private int bufferPos;
  private int bufferEnd;
  private long recordsRead;
  private long totalRecords;
  private Counter bytesRead; // null outside a task

  @Override
  public void initialize(InputSplit genericSplit, TaskAttemptContext context) throws IOException {
    split = (CombineFileSplit) genericSplit;
    conf = context.getConfiguration();
    for (int i = 0; i < split.getNumPaths(); i++) {
      checkAligned(split.getPath(i), split.getOffset(i), "starts");
      checkAligned(split.getPath(i), split.getOffset(i) + split.getLength(i), "ends");
    }
    totalRecords = split.getLength() / ValueRecords.RECORD_BYTES;
    bytesRead = context.getCounter(FileInputFormatCounter.BYTES_READ);
  }

  private static void checkAligned(Path file, long offset, String what)
      throws CorruptInputException {
    if (offset % ValueRecords.RECORD_BYTES != 0) {
      throw new CorruptInputException(file + ": a split " + what + " at offset " + offset
          + ", inside a 4-byte record", file, null);
    }
  }

  @Override
  public boolean nextKeyValue() throws IOException {
    if (bufferPos == bufferEnd && !fill()) {
      return false;
    }
    value.set(buffer, bufferPos, ValueRecords.RECORD_BYTES);
    bufferPos += ValueRecords.RECORD_BYTES;
    recordsRead++;
    return true;
  }

  /** Refills the buffer with whole records, moving to the next chunk as needed. */
  private boolean fill() throws IOException {
    while (chunkLeft == 0) {
      closeStream();
      if (++chunk >= split.getNumPaths()) {
        return false;
      }
      Path file = split.getPath(chunk);
      in = file.getFileSystem(conf).open(file);
      in.seek(split.getOffset(chunk));
      chunkOffset = split.getOffset(chunk);
      chunkLeft = split.getLength(chunk);
      bufferPos = 0;
      bufferEnd = 0;
    }
    chunkOffset += bufferEnd;
    int want = (int) Math.min(buffer.length, chunkLeft);
    readFully(in, want);
    chunkLeft -= want;
    if (bytesRead != null) {
      bytesRead.increment(want); // bytes per joule in the energy summary
    }
    bufferPos = 0;
    bufferEnd = want;
    return true;
  }

  private void readFully(InputStream stream, int want) throws IOException {
    int got = 0;
    while (got < want) {
      int n = stream.read(buffer, got, want - got);
      if (n < 0) {
        long recordStart = chunkOffset + got - got % ValueRecords.RECORD_BYTES;
        Path file = split.getPath(chunk);
        throw new CorruptInputException(file + ": file ends at offset " + (chunkOffset + got)
            + ", inside or before the record at offset " + recordStart + " (the split expected "
            + (split.getOffset(chunk) + split.getLength(chunk)) + " bytes)", file,
            new EOFException());
      }
      got += n;
    }
  }

  @Override
  public NullWritable getCurrentKey() {
    return NullWritable.get();
  }

  @Override
  public BytesWritable getCurrentValue() {
    return value;
  }

  @Override
  public float getProgress() {
    return totalRecords == 0 ? 1f : (float) recordsRead / totalRecords;
  }

  @Override
  public void close() throws IOException {
    closeStream();
  }

  private void closeStream() throws IOException {
    if (in != null) {
      in.close();
      in = null;
    }
  }
}

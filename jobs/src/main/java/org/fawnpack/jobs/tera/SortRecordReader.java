package org.fawnpack.jobs.tera;

import java.io.IOException;
import java.io.InputStream;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;

/**
 * Reads the 100-byte records of a split through its own 64 KB buffer (one stream read per 655
 * records instead of one per record). A file that ends inside a record fails with the file and
 * the record's offset.
 */
public final class SortRecordReader extends RecordReader<SortKey, SortValue> {
  private static final int BUFFER_RECORDS = 655;

  private final byte[] buffer = new byte[BUFFER_RECORDS * SortRecord.BYTES];
  private final SortKey key = new SortKey();
  private final SortValue value = new SortValue();
  private InputStream in;
  private Path file;
  private long start;
  private long end;
  /** File offset of the record after the current one. */
  private long position;
  private int filled;
  private int next;

  @Override
  public void initialize(InputSplit genericSplit, TaskAttemptContext context) throws IOException {
    FileSplit split = (FileSplit) genericSplit;
    open(split.getPath(), split.getStart(), split.getLength(),
        split.getPath().getFileSystem(context.getConfiguration()));
  }

  /** Opens {@code length} bytes of {@code file} from {@code start} (a record boundary). */
  void open(Path path, long startOffset, long length, FileSystem fs) throws IOException {
    if (startOffset % SortRecord.BYTES != 0) {
      throw new IOException(path + ": split start " + startOffset + " is not on a record boundary");
    }
    file = path;
    start = startOffset;
    end = startOffset + length;
    position = startOffset;
    FSDataInputStream stream = fs.open(path);
    stream.seek(startOffset);
    in = stream;
  }

  @Override
  public boolean nextKeyValue() throws IOException {
    if (position >= end) {
      return false;
    }
    if (next == filled) {
      refill();
    }
    key.set(buffer, next);
    value.set(buffer, next + SortRecord.KEY_BYTES);
    next += SortRecord.BYTES;
    position += SortRecord.BYTES;
    return true;
  }

  private void refill() throws IOException {
    int want = (int) Math.min(buffer.length, end - position);
    int got = 0;
    while (got < want) {
      int n = in.read(buffer, got, want - got);
      if (n < 0) {
        break;
      }
      got += n;
    }
    if (got < want) {
      long wholeRecords = got / SortRecord.BYTES;
      throw new TruncatedRecordException(file, position + wholeRecords * SortRecord.BYTES,
          position + got);
    }
    filled = got;
    next = 0;
  }

  /** File offset of the current record. */
  public long currentOffset() {
    return position - SortRecord.BYTES;
  }

  public Path file() {
    return file;
  }

  @Override
  public SortKey getCurrentKey() {
    return key;
  }

  @Override
  public SortValue getCurrentValue() {
    return value;
  }

  @Override
  public float getProgress() {
    return end == start ? 1f : (float) (position - start) / (end - start);
  }

  @Override
  public void close() throws IOException {
    if (in != null) {
      in.close();
    }
  }
}

package org.fawnpack.jobs.tera;

import java.io.IOException;
import java.io.InputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.input.CombineFileSplit;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.fawnpack.input.FawnInputCounter;

/**
 * Reads the 100-byte records of a split (a file piece, or several in a row) through its own 64 KB
 * buffer (one stream read per 655
 * records instead of one per record). A file that ends inside a record fails with the file and
 * the record's offset.
 */
public final class SortRecordReader extends RecordReader<SortKey, SortValue> {
  private static final int BUFFER_RECORDS = 655;

  private final byte[] buffer = new byte[BUFFER_RECORDS * SortRecord.BYTES];
  private final SortKey key = new SortKey();
  private final SortValue value = new SortValue();
  private InputStream in;
  private Configuration conf;
  /** The pieces of a combined split, else null. */
  private CombineFileSplit pieces;
  private int nextPiece;
  private long totalBytes;
  /** Bytes of the pieces before the current one. */
  private long doneBytes;
  private Path file;
  private long start;
  private long end;
  /** File offset of the record after the current one. */
  private long position;
  private int filled;
  private int next;
  /** Bytes read, or null when read outside a task (the sampler, tests). */
  private Counter bytesRead;

  @Override
  public void initialize(InputSplit split, TaskAttemptContext context) throws IOException {
    // Combined splits leave Hadoop's "Bytes Read" at 0; count them where the combined text
    // readers do, so a job's bytes per joule is not 0 B/J.
    bytesRead = context.getCounter(FawnInputCounter.BYTES_READ);
    open(split, context.getConfiguration());
  }

  /** Opens a {@link FileSplit} or the pieces of a {@link CombineFileSplit} one after the other. */
  void open(InputSplit split, Configuration conf) throws IOException {
    this.conf = conf;
    if (split instanceof CombineFileSplit combined) {
      pieces = combined;
      totalBytes = combined.getLength();
      nextPiece = 0;
      openNextPiece();
    } else {
      FileSplit fileSplit = (FileSplit) split;
      totalBytes = fileSplit.getLength();
      open(fileSplit.getPath(), fileSplit.getStart(), fileSplit.getLength(),
          fileSplit.getPath().getFileSystem(conf));
    }
  }

  private boolean openNextPiece() throws IOException {
    if (pieces == null || nextPiece >= pieces.getNumPaths()) {
      return false;
    }
    if (in != null) {
      in.close();
    }
    Path path = pieces.getPath(nextPiece);
    doneBytes += end - start;
    open(path, pieces.getOffset(nextPiece), pieces.getLength(nextPiece),
        path.getFileSystem(conf));
    nextPiece++;
    return true;
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
    filled = 0;
    next = 0;
    FSDataInputStream stream = fs.open(path);
    stream.seek(startOffset);
    in = stream;
  }

  @Override
  public boolean nextKeyValue() throws IOException {
    while (position >= end) {
      if (!openNextPiece()) {
        return false;
      }
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
    if (bytesRead != null) {
      bytesRead.increment(got);
    }
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
    long total = totalBytes > 0 ? totalBytes : end - start;
    return total == 0 ? 1f : (float) (doneBytes + position - start) / total;
  }

  @Override
  public void close() throws IOException {
    if (in != null) {
      in.close();
    }
  }
}

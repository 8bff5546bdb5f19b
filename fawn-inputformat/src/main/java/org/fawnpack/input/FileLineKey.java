package org.fawnpack.input;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableComparable;

/** A line's source: file path and byte offset in that file. Sorts by file, then offset. */
public final class FileLineKey implements WritableComparable<FileLineKey> {

  private final Text file = new Text();
  /** The last name given to {@link #set}, so a reader's per-line call compares references. */
  private String fileName = "";
  private long offset;

  public FileLineKey() {}

  public FileLineKey(String file, long offset) {
    set(file, offset);
  }

  /** Reuses the same Text when the file has not changed, as readers call this once a line. */
  public void set(String file, long offset) {
    if (!fileName.equals(file)) {
      this.file.set(file);
      fileName = file;
    }
    this.offset = offset;
  }

  public String file() {
    return fileName;
  }

  public long offset() {
    return offset;
  }

  @Override
  public void write(DataOutput out) throws IOException {
    file.write(out);
    out.writeLong(offset);
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    file.readFields(in);
    fileName = file.toString();
    offset = in.readLong();
  }

  @Override
  public int compareTo(FileLineKey other) {
    int byFile = file.compareTo(other.file);
    return byFile != 0 ? byFile : Long.compare(offset, other.offset);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FileLineKey other && offset == other.offset && file.equals(other.file);
  }

  @Override
  public int hashCode() {
    return 31 * file.hashCode() + Long.hashCode(offset);
  }

  @Override
  public String toString() {
    return file + ":" + offset;
  }
}

package org.fawnpack.jobs.tera;

import java.io.IOException;
import org.apache.hadoop.fs.Path;

/** A sort-benchmark file whose length is not a whole number of 100-byte records. */
public final class TruncatedRecordException extends IOException {
  private static final long serialVersionUID = 1L;

  private final transient Path file;
  private final long offset;

  public TruncatedRecordException(Path file, long offset, long fileLength) {
    super(file + ": truncated record at offset " + offset + " (file length " + fileLength
        + " is not a multiple of " + SortRecord.BYTES + " bytes; the last "
        + (fileLength - offset) + " bytes are not a whole record)");
    this.file = file;
    this.offset = offset;
  }

  public Path file() {
    return file;
  }

  /** Where the incomplete record starts. */
  public long offset() {
    return offset;
  }
}

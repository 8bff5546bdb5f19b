package org.fawnpack.input;

import java.io.IOException;
import org.apache.hadoop.fs.Path;

/** An input file that cannot be decoded; carries the file so callers and logs can name it. */
public final class CorruptInputException extends IOException {

  private static final long serialVersionUID = 1L;

  private final transient Path file;

  public CorruptInputException(String message, Path file, Throwable cause) {
    super(message, cause);
    this.file = file;
  }

  /** The file that could not be decoded. */
  public Path file() {
    return file;
  }
}

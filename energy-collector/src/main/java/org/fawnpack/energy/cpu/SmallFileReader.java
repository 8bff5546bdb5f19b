package org.fawnpack.energy.cpu;

import java.io.FileInputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.Arrays;

/**
 * Reads small pseudo-files (/proc, cgroupfs, pid files) into one reused buffer: no Path objects,
 * no per-file buffers, since the sampler reads one file per process every second. Not
 * thread-safe; each user owns one.
 */
final class SmallFileReader {
  private byte[] buffer = new byte[4096];

  /**
   * Reads the whole file into {@link #buffer()}; returns its length, or -1 when the file does not
   * exist or cannot be opened (a process that exited, a pid file not yet written).
   */
  int read(String path) throws IOException {
    FileInputStream in;
    try {
      in = new FileInputStream(path);
    } catch (FileNotFoundException e) {
      return -1;
    }
    try (in) {
      int length = 0;
      int n;
      while ((n = in.read(buffer, length, buffer.length - length)) > 0) {
        length += n;
        if (length == buffer.length) {
          buffer = Arrays.copyOf(buffer, buffer.length * 2);
        }
      }
      return length;
    }
  }

  /** The bytes of the last successful {@link #read}. */
  byte[] buffer() {
    return buffer;
  }

  /** An unsigned decimal in {@code [from, to)}, surrounding whitespace skipped; -1 if none. */
  static long parseDecimal(byte[] bytes, int from, int to) {
    while (from < to && isSpace(bytes[from])) {
      from++;
    }
    while (to > from && isSpace(bytes[to - 1])) {
      to--;
    }
    if (from == to || to - from > 18) {
      return -1;
    }
    long value = 0;
    for (int i = from; i < to; i++) {
      int digit = bytes[i] - '0';
      if (digit < 0 || digit > 9) {
        return -1;
      }
      value = value * 10 + digit;
    }
    return value;
  }

  static boolean isSpace(byte b) {
    return b == ' ' || b == '\n' || b == '\t' || b == '\r';
  }
}

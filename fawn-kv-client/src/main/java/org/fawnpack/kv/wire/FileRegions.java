package org.fawnpack.kv.wire;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** A payload of a prefix and a file's bytes, read into one array where none can be sent. */
final class FileRegions {
  private FileRegions() {}

  static byte[] read(byte[] prefix, Path file, long position, int count) throws IOException {
    byte[] payload = new byte[prefix.length + count];
    System.arraycopy(prefix, 0, payload, 0, prefix.length);
    ByteBuffer into = ByteBuffer.wrap(payload, prefix.length, count);
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      while (into.hasRemaining()) {
        if (channel.read(into, position + into.position() - prefix.length) < 0) {
          throw new EOFException(file + " ends before byte " + (position + count));
        }
      }
    }
    return payload;
  }
}

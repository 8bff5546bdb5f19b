package org.fawnpack.kv.store;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/** Positional reads and writes that finish the whole buffer (a channel may do part of one). */
final class FileIo {

  private FileIo() {}

  static void writeFully(FileChannel channel, ByteBuffer src, long position) throws IOException {
    long at = position;
    while (src.hasRemaining()) {
      at += channel.write(src, at);
    }
  }

  static void readFully(FileChannel channel, ByteBuffer dst, long position) throws IOException {
    long at = position;
    while (dst.hasRemaining()) {
      int n = channel.read(dst, at);
      if (n < 0) {
        throw new EOFException("read past the end at offset " + at);
      }
      at += n;
    }
  }
}

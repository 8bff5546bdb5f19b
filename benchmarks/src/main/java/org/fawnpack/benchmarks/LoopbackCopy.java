package org.fawnpack.benchmarks;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The baseline for moving data: a plain copy of a file over one loopback TCP connection into
 * another file, forced to disk at the end (what a joiner must do at the least), timed.
 */
final class LoopbackCopy {

  private LoopbackCopy() {}

  /** Seconds to copy {@code bytes} bytes (a file written first, then sent and forced). */
  static double seconds(Path dir, long bytes) throws Exception {
    Files.createDirectories(dir);
    Path source = dir.resolve("copy-source");
    Path target = dir.resolve("copy-target");
    writeFile(source, bytes);
    ExecutorService receiver = Executors.newSingleThreadExecutor();
    try (ServerSocketChannel server = ServerSocketChannel.open()) {
      server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      long start = System.nanoTime();
      Future<Long> received = receiver.submit(() -> receive(server, target));
      try (SocketChannel out = SocketChannel.open(server.getLocalAddress());
          FileChannel in = FileChannel.open(source, StandardOpenOption.READ)) {
        for (long at = 0; at < bytes; ) {
          at += in.transferTo(at, bytes - at, out);
        }
      }
      long got = received.get(10, TimeUnit.MINUTES);
      double seconds = (System.nanoTime() - start) / 1e9;
      if (got != bytes) {
        throw new IOException("the loopback copy received " + got + " of " + bytes + " bytes");
      }
      return seconds;
    } finally {
      receiver.shutdownNow();
      Files.deleteIfExists(source);
      Files.deleteIfExists(target);
    }
  }

  private static long receive(ServerSocketChannel server, Path target) throws IOException {
    try (SocketChannel in = server.accept();
        FileChannel out = FileChannel.open(target, StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
      ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 20);
      long total = 0;
      while (in.read(buffer) >= 0) {
        buffer.flip();
        while (buffer.hasRemaining()) {
          total += out.write(buffer);
        }
        buffer.clear();
      }
      out.force(true);
      return total;
    }
  }

  private static void writeFile(Path file, long bytes) throws IOException {
    ByteBuffer block = ByteBuffer.allocateDirect(1 << 20);
    java.util.Random random = new java.util.Random(1);
    byte[] noise = new byte[1 << 20];
    random.nextBytes(noise);
    block.put(noise).flip();
    try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE,
        StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
      for (long left = bytes; left > 0; left -= block.limit()) {
        block.rewind().limit((int) Math.min(block.capacity(), left));
        while (block.hasRemaining()) {
          out.write(block);
        }
      }
      out.force(true);
    }
  }
}

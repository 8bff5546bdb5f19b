package org.fawnpack.benchmarks.ycsb;

import java.io.Closeable;
import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Debian's {@code redis-server} as the baseline, a child process on loopback with its
 * append-only file synced every second ({@code appendfsync everysec}, Redis's recommended
 * durable setting) and no snapshots.
 */
public final class RedisServer implements Closeable {
  private final Process process;
  private final int port;

  private RedisServer(Process process, int port) {
    this.process = process;
    this.port = port;
  }

  /** The {@code redis-server} program on the PATH, if installed. */
  public static Optional<Path> find() {
    for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin")
        .split(File.pathSeparator)) {
      Path candidate = Path.of(dir, "redis-server");
      if (Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  /** Starts it with its files in {@code dir} and waits until it answers PING. */
  public static RedisServer start(Path program, Path dir) throws IOException,
      InterruptedException {
    Files.createDirectories(dir);
    int port;
    try (ServerSocket probe = new ServerSocket(0)) {
      port = probe.getLocalPort();
    }
    Process process = new ProcessBuilder(List.of(program.toString(), "--port",
        Integer.toString(port), "--bind", "127.0.0.1", "--dir", dir.toAbsolutePath().toString(),
        "--appendonly", "yes", "--appendfsync", "everysec", "--save", "",
        "--daemonize", "no", "--logfile", dir.resolve("redis.log").toAbsolutePath().toString()))
        .redirectErrorStream(true).redirectOutput(dir.resolve("redis.out").toFile()).start();
    RedisServer server = new RedisServer(process, port);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (true) {
      try (RespConnection c = new RespConnection(new InetSocketAddress("127.0.0.1", port),
          1000)) {
        if ("PONG".equals(c.call(List.of("PING".getBytes())))) {
          return server;
        }
      } catch (IOException e) {
        if (!process.isAlive() || System.nanoTime() > deadline) {
          server.close();
          throw new IOException("redis-server did not answer on port " + port + "; see "
              + dir.resolve("redis.log"), e);
        }
      }
      Thread.sleep(100); // redis-server starts in ~50 ms; bounded by the 20 s deadline above
    }
  }

  /** The server's process (for its CPU time, say). */
  public ProcessHandle process() {
    return process.toHandle();
  }

  public int port() {
    return port;
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}

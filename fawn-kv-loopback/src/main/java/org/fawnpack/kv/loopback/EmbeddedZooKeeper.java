package org.fawnpack.kv.loopback;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServer;

/**
 * A single ZooKeeper server inside this JVM on loopback, for {@code ./fawn kv local} and tests:
 * FAWN-KV on one machine without installing ZooKeeper. Its data lives under {@code dir}.
 */
public final class EmbeddedZooKeeper implements Closeable {
  private final ServerCnxnFactory connections;
  private final ZooKeeperServer server;

  private EmbeddedZooKeeper(ServerCnxnFactory connections, ZooKeeperServer server) {
    this.connections = connections;
    this.server = server;
  }

  /** Starts on 127.0.0.1:{@code port} (0: any free port). */
  public static EmbeddedZooKeeper start(Path dir, int port) throws IOException {
    Files.createDirectories(dir);
    ZooKeeperServer server = new ZooKeeperServer(dir.toFile(), dir.toFile(), 2_000);
    ServerCnxnFactory connections = ServerCnxnFactory.createFactory(
        new InetSocketAddress("127.0.0.1", port), 200);
    try {
      connections.startup(server);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      connections.shutdown();
      throw new IOException("interrupted starting ZooKeeper", e);
    }
    return new EmbeddedZooKeeper(connections, server);
  }

  /** The connect string clients use ({@code fawn.kv.zookeeper.quorum}). */
  public String connectString() {
    return "127.0.0.1:" + connections.getLocalPort();
  }

  @Override
  public void close() {
    connections.shutdown();
    server.shutdown();
  }
}

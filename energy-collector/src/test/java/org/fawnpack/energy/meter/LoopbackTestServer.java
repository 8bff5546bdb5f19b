package org.fawnpack.energy.meter;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real TCP server on loopback for the meters' tests: accepts connections on its own thread,
 * serves each on another ({@link #serve}), counts them, and closes everything on close.
 */
abstract class LoopbackTestServer implements AutoCloseable {
  private final ServerSocket server;
  private final String name;
  private final List<Socket> clients = new CopyOnWriteArrayList<>();
  private final AtomicInteger accepted = new AtomicInteger();

  LoopbackTestServer(String name) throws IOException {
    this.name = name;
    server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread acceptor = new Thread(this::acceptLoop, name + "-accept");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /** Serves one connection until it ends; exceptions mean the peer went away. */
  abstract void serve(Socket client) throws IOException;

  /** {@code host:port}, for a meter's address key. */
  String address() {
    return server.getInetAddress().getHostAddress() + ":" + server.getLocalPort();
  }

  /** How many connections were accepted so far. */
  int connectionsAccepted() {
    return accepted.get();
  }

  /** Closes every open client connection now. */
  void dropConnections() throws IOException {
    for (Socket client : clients) {
      client.close();
    }
  }

  private void acceptLoop() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        accepted.incrementAndGet();
        clients.add(client);
        Thread handler = new Thread(() -> serveAndForget(client), name + "-client");
        handler.setDaemon(true);
        handler.start();
      } catch (IOException e) {
        return; // the server socket was closed: the test is over
      }
    }
  }

  private void serveAndForget(Socket client) {
    try (client) {
      serve(client);
    } catch (IOException e) {
      // The meter or the test closed the connection; nothing more to serve.
    } finally {
      clients.remove(client);
    }
  }

  @Override
  public void close() throws IOException {
    server.close();
    dropConnections();
  }
}

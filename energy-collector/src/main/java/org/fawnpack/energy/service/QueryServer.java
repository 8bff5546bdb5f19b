package org.fawnpack.energy.service;

import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Function;
import org.fawnpack.energy.EnergyProtocol;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The loopback port tasks ask (see {@link EnergyProtocol}). Loopback only: the figures are for
 * the containers on this node, and nothing else should reach the NodeManager through it.
 */
final class QueryServer implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(QueryServer.class);
  private static final int READ_TIMEOUT_MS = 5000;

  private final ServerSocket socket;
  private final Function<String, String> handler;
  private final ExecutorService workers;
  private final Thread acceptor;

  /** {@code handler} maps a request line to a response line (without newline). */
  QueryServer(int port, Function<String, String> handler) throws IOException {
    this.handler = handler;
    this.socket = new ServerSocket();
    socket.setReuseAddress(true);
    socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 64);
    this.workers = Executors.newFixedThreadPool(2, runnable -> {
      Thread thread = new Thread(runnable, "fawn-energy-query");
      thread.setDaemon(true);
      return thread;
    });
    this.acceptor = new Thread(this::acceptLoop, "fawn-energy-accept-" + socket.getLocalPort());
    acceptor.setDaemon(true);
    acceptor.start();
  }

  int port() {
    return socket.getLocalPort();
  }

  private void acceptLoop() {
    while (!socket.isClosed()) {
      try {
        Socket client = socket.accept();
        try {
          workers.execute(() -> serve(client));
        } catch (RejectedExecutionException e) {
          client.close(); // shutting down
        }
      } catch (SocketException e) {
        return; // closed by close()
      } catch (IOException e) {
        LOG.warn("Energy query port {}: accept failed: {}", port(), e.toString());
      }
    }
  }

  private void serve(Socket client) {
    try (client) {
      client.setSoTimeout(READ_TIMEOUT_MS);
      BufferedReader in = new BufferedReader(
          new InputStreamReader(client.getInputStream(), StandardCharsets.UTF_8));
      String request = in.readLine();
      if (request == null) {
        return;
      }
      String response = handler.apply(request.trim());
      OutputStream out = client.getOutputStream();
      out.write((response + "\n").getBytes(StandardCharsets.UTF_8));
      out.flush();
    } catch (IOException e) {
      LOG.debug("Energy query from {} failed: {}", client.getRemoteSocketAddress(), e.toString());
    }
  }

  @Override
  public void close() throws IOException {
    socket.close();
    workers.shutdownNow();
  }
}

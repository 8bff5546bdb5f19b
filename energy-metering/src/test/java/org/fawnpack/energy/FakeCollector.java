package org.fawnpack.energy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.commons.codec.binary.Base64;

/**
 * A real TCP server on a free loopback port speaking the collector's line protocol: it reads one
 * request line per connection, records it, and plays the next scripted reply (the last one
 * repeats). Besides a literal line, a reply can be {@link #SILENT} (keep the connection open and
 * never answer) or {@link #HANG_UP} (close without a word).
 */
final class FakeCollector implements AutoCloseable {
  static final String SILENT = "<silent>";
  static final String HANG_UP = "<hang-up>";

  private final ServerSocket server;
  private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "fake-collector");
    t.setDaemon(true);
    return t;
  });
  private final Deque<String> replies = new ArrayDeque<>();
  private final List<String> requests = new CopyOnWriteArrayList<>();
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();

  FakeCollector(String... replies) throws IOException {
    this(0, replies);
  }

  /** A collector on a given loopback port (0: any), as a restarted one comes back on its own. */
  FakeCollector(int port, String... replies) throws IOException {
    this.replies.addAll(List.of(replies));
    server = new ServerSocket(port, 50, InetAddress.getLoopbackAddress());
    threads.execute(this::acceptLoop);
  }

  int port() {
    return server.getLocalPort();
  }

  /** The request lines received so far, in order. */
  List<String> requests() {
    return List.copyOf(requests);
  }

  /** A container's environment as YARN sets it on a node running this collector. */
  Map<String, String> environment(String containerId) {
    return Map.of(EnergyProtocol.ENV_METADATA, metadata(port()), "CONTAINER_ID", containerId);
  }

  /**
   * The aux-service metadata as YARN's AuxiliaryServiceHelper puts it in the environment:
   * commons-codec Base64 of the service's 4 big-endian port bytes.
   */
  static String metadata(int port) {
    return Base64.encodeBase64String(ByteBuffer.allocate(4).putInt(port).array());
  }

  private synchronized String nextReply() {
    return replies.size() > 1 ? replies.poll() : replies.peek();
  }

  private void acceptLoop() {
    while (!server.isClosed()) {
      try {
        Socket socket = server.accept();
        sockets.add(socket);
        threads.execute(() -> serve(socket));
      } catch (IOException e) {
        return;
      }
    }
  }

  private void serve(Socket socket) {
    try (socket) {
      BufferedReader in = new BufferedReader(
          new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
      String request = in.readLine();
      if (request == null) {
        return;
      }
      requests.add(request);
      String reply = nextReply();
      if (SILENT.equals(reply)) {
        while (in.read() >= 0) {
          // hold the connection until the client gives up
        }
      } else if (!HANG_UP.equals(reply) && reply != null) {
        OutputStream out = socket.getOutputStream();
        out.write((reply + "\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
      }
    } catch (IOException e) {
      // the client went away
    }
  }

  @Override
  public void close() throws IOException {
    server.close();
    for (Socket socket : sockets) {
      socket.close();
    }
    threads.shutdownNow();
  }
}

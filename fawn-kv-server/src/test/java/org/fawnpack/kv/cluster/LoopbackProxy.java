package org.fawnpack.kv.cluster;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A TCP proxy on a loopback address in front of one node, so a fault test can make that node's
 * links slow or cut them, as a flaky network would, without touching the node: every byte in
 * either direction waits {@link #delay} first, and {@link #cut} closes every connection (and
 * each new one until {@link #heal}), so both ends see their link break. Only loopback
 * addresses: a test's faults never leave the machine.
 */
final class LoopbackProxy implements Closeable {
  private final ServerSocket listener;
  private final InetSocketAddress target;
  private final ExecutorService pumps = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "loopback-proxy");
    t.setDaemon(true);
    return t;
  });
  private final List<Socket> open = new CopyOnWriteArrayList<>();
  private volatile long delayMs;
  private volatile boolean cut;
  private final java.util.concurrent.atomic.AtomicLong broken =
      new java.util.concurrent.atomic.AtomicLong();
  private final java.util.concurrent.atomic.AtomicLong delayed =
      new java.util.concurrent.atomic.AtomicLong();

  /** Listens on {@code host} (any free port) and forwards to {@code target}. */
  LoopbackProxy(String host, InetSocketAddress target) throws IOException {
    InetAddress address = InetAddress.getByName(host);
    if (!address.isLoopbackAddress() || !target.getAddress().isLoopbackAddress()) {
      throw new IllegalArgumentException("a test proxy stays on loopback: " + host + " -> "
          + target);
    }
    this.target = target;
    this.listener = new ServerSocket(0, 50, address);
    pumps.execute(this::accept);
  }

  int port() {
    return listener.getLocalPort();
  }

  /** Every byte waits {@code ms} before it is passed on (0: none). */
  void delay(long ms) {
    delayMs = ms;
  }

  /** Breaks every link through the proxy, and each new one, until {@link #heal}. */
  void cut() {
    cut = true;
    broken.addAndGet(open.size());
    open.forEach(LoopbackProxy::closeQuietly);
    open.clear();
  }

  /** Sockets closed by cuts, and connections refused while cut, so far. */
  long linksBroken() {
    return broken.get();
  }

  /** Pieces of traffic held back by a delay so far. */
  long piecesDelayed() {
    return delayed.get();
  }

  void heal() {
    cut = false;
  }

  private void accept() {
    while (!listener.isClosed()) {
      try {
        Socket client = listener.accept();
        if (cut) {
          broken.incrementAndGet();
          closeQuietly(client);
          continue;
        }
        connect(client);
      } catch (IOException e) {
        return; // the listener closed
      }
    }
  }

  private void connect(Socket client) {
    Socket server;
    try {
      server = new Socket(target.getAddress(), target.getPort());
    } catch (IOException e) {
      closeQuietly(client); // the node is down: the client sees its link break
      return;
    }
    open.add(client);
    open.add(server);
    pumps.execute(() -> pump(client, server));
    pumps.execute(() -> pump(server, client));
  }

  private void pump(Socket from, Socket to) {
    byte[] buffer = new byte[64 * 1024];
    try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
      int n;
      while ((n = in.read(buffer)) > 0) {
        long wait = delayMs;
        if (wait > 0) {
          delayed.incrementAndGet();
          Thread.sleep(wait); // the fault this proxy injects
        }
        out.write(buffer, 0, n);
        out.flush();
      }
    } catch (IOException | InterruptedException e) {
      // a cut, or one end closed: the other end is closed below
    } finally {
      closeQuietly(from);
      closeQuietly(to);
      open.remove(from);
      open.remove(to);
    }
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException e) {
      // closing a broken socket: nothing left to do
    }
  }

  @Override
  public void close() throws IOException {
    listener.close();
    cut();
    pumps.shutdownNow();
  }
}

package org.fawnpack.energy.meter;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An apcupsd Network Information Server for tests, on loopback: reads one length-prefixed
 * command, answers {@code status} with the lines the test set (one length-prefixed frame each,
 * then a frame of length 0) and closes, as apcupsd does. It can be told to stall after reading
 * the command, or to close before the end-of-status frame.
 */
final class FakeApcupsdNis implements AutoCloseable {
  private final ServerSocket server;
  private final List<String> commands = new CopyOnWriteArrayList<>();
  private final List<Socket> clients = new CopyOnWriteArrayList<>();
  private final AtomicInteger accepted = new AtomicInteger();
  private volatile List<String> statusLines = List.of();
  private volatile boolean stall;
  private volatile boolean truncate;

  FakeApcupsdNis() throws IOException {
    server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread acceptor = new Thread(this::acceptLoop, "fake-nis-accept");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  String address() {
    return server.getInetAddress().getHostAddress() + ":" + server.getLocalPort();
  }

  /** The status lines, each sent as given (so include the "\n" apcupsd ends them with). */
  FakeApcupsdNis status(String... lines) {
    statusLines = List.of(lines);
    return this;
  }

  void stall() {
    stall = true;
  }

  /** Send the status lines but close without the end-of-status frame. */
  void truncate() {
    truncate = true;
  }

  List<String> commands() {
    return List.copyOf(commands);
  }

  int connectionsAccepted() {
    return accepted.get();
  }

  private void acceptLoop() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        accepted.incrementAndGet();
        clients.add(client);
        Thread handler = new Thread(() -> serve(client), "fake-nis-client");
        handler.setDaemon(true);
        handler.start();
      } catch (IOException e) {
        return; // the server socket was closed: the test is over
      }
    }
  }

  private void serve(Socket client) {
    try (client) {
      DataInputStream in = new DataInputStream(client.getInputStream());
      byte[] command = new byte[in.readUnsignedShort()];
      in.readFully(command);
      commands.add(new String(command, StandardCharsets.US_ASCII));
      if (stall) {
        while (in.read() >= 0) {
          // hold the connection, unanswered, until the meter gives up and closes it
        }
        return;
      }
      DataOutputStream out = new DataOutputStream(client.getOutputStream());
      for (String line : statusLines) {
        byte[] bytes = line.getBytes(StandardCharsets.US_ASCII);
        out.writeShort(bytes.length);
        out.write(bytes);
      }
      if (!truncate) {
        out.writeShort(0);
      }
      out.flush();
    } catch (IOException e) {
      // The meter closed the connection; nothing more to serve.
    } finally {
      clients.remove(client);
    }
  }

  @Override
  public void close() throws IOException {
    server.close();
    for (Socket client : clients) {
      client.close();
    }
  }
}

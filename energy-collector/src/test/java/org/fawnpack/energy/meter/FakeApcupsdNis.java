package org.fawnpack.energy.meter;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An apcupsd Network Information Server for tests, on loopback: reads one length-prefixed
 * command, answers {@code status} with the lines the test set (one length-prefixed frame each,
 * then a frame of length 0) and closes, as apcupsd does. It can be told to stall after reading
 * the command, or to close before the end-of-status frame.
 */
final class FakeApcupsdNis extends LoopbackTestServer {
  private final List<String> commands = new CopyOnWriteArrayList<>();
  private volatile List<String> statusLines = List.of();
  private volatile boolean stall;
  private volatile boolean truncate;

  FakeApcupsdNis() throws IOException {
    super("fake-nis");
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

  @Override
  void serve(Socket client) throws IOException {
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
  }
}

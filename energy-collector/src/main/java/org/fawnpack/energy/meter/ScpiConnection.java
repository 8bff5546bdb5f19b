package org.fawnpack.energy.meter;

import java.io.Closeable;
import java.nio.charset.StandardCharsets;

/**
 * One open SCPI session over raw TCP (port 5025 on LAN instruments, or a ser2net port in front of
 * an RS-232 supply): a query is one line out, the answer one line back. SCPI is ASCII and ends
 * lines with LF; a CR before it (some serial firmwares send CR LF) is dropped.
 */
final class ScpiConnection implements Closeable {
  /** Longer than any numeric reply; a longer line means we are talking to something else. */
  static final int MAX_LINE_CHARS = 256;

  private final MeterSocket socket;

  private ScpiConnection(MeterSocket socket) {
    this.socket = socket;
  }

  static ScpiConnection open(TcpMeterAddress address, MeterDeadline deadline)
      throws MeterException {
    return new ScpiConnection(MeterSocket.connect(address, deadline));
  }

  /** Sends {@code query} and returns the reply line without its terminator. */
  String query(String query, MeterDeadline deadline) throws MeterException {
    String doing = "query '" + query + "' to " + socket.address();
    socket.write((query + "\n").getBytes(StandardCharsets.US_ASCII), doing);
    StringBuilder line = new StringBuilder();
    while (true) {
      int b = socket.read(deadline, doing);
      if (b < 0) {
        throw socket.closedByPeer(doing);
      }
      if (b == '\n') {
        break;
      }
      if (line.length() == MAX_LINE_CHARS) {
        throw new MeterException("bad-response", "reply to '" + query + "' from "
            + socket.address() + " is longer than " + MAX_LINE_CHARS + " characters: '"
            + ReplyText.printable(line.toString()) + "'");
      }
      line.append((char) b);
    }
    int end = line.length();
    if (end > 0 && line.charAt(end - 1) == '\r') {
      line.setLength(end - 1);
    }
    return line.toString();
  }

  @Override
  public void close() {
    socket.close();
  }
}

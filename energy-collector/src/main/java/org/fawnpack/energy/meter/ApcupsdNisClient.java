package org.fawnpack.energy.meter;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Asks an apcupsd Network Information Server for its {@code status}. The protocol, both ways, is
 * a sequence of frames: a 2-byte big-endian length, then that many bytes of text. The client sends
 * one frame, {@code status}; the server answers one frame per line ({@code LOADPCT  :  23.0
 * Percent\n}), then a frame of length 0, and closes. So each call uses a new connection.
 */
final class ApcupsdNisClient {
  /** A real status is about 50 lines of under 80 bytes; far more means this is not apcupsd. */
  static final int MAX_STATUS_BYTES = 64 * 1024;

  private ApcupsdNisClient() {
  }

  /**
   * The status fields in the order sent, keyed by name without padding ({@code LOADPCT}), values
   * trimmed ({@code 23.0 Percent}). Lines without a colon are skipped.
   */
  static Map<String, String> status(TcpMeterAddress address, MeterDeadline deadline)
      throws MeterException {
    String doing = "status from apcupsd at " + address;
    try (MeterSocket socket = MeterSocket.connect(address, deadline)) {
      socket.write(frame("status"), doing);
      Map<String, String> fields = new LinkedHashMap<>();
      byte[] header = new byte[2];
      int total = 0;
      while (true) {
        socket.readFully(header, deadline, doing);
        int length = ((header[0] & 0xff) << 8) | (header[1] & 0xff);
        if (length == 0) {
          return Collections.unmodifiableMap(fields);
        }
        total += length;
        if (total > MAX_STATUS_BYTES) {
          throw new MeterException("bad-response", doing + " is longer than "
              + MAX_STATUS_BYTES + " bytes; is " + address + " an apcupsd NIS port?");
        }
        byte[] record = new byte[length];
        socket.readFully(record, deadline, doing);
        addField(fields, new String(record, StandardCharsets.ISO_8859_1));
      }
    }
  }

  private static void addField(Map<String, String> fields, String line) {
    int colon = line.indexOf(':');
    if (colon > 0) { // split at the first colon only: DATE and friends hold colons in the value
      fields.putIfAbsent(line.substring(0, colon).trim(), line.substring(colon + 1).trim());
    }
  }

  private static byte[] frame(String text) {
    byte[] body = text.getBytes(StandardCharsets.US_ASCII);
    byte[] frame = new byte[2 + body.length];
    frame[0] = (byte) (body.length >>> 8);
    frame[1] = (byte) body.length;
    System.arraycopy(body, 0, frame, 2, body.length);
    return frame;
  }
}

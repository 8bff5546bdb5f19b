package org.fawnpack.benchmarks.ycsb;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One blocking connection speaking Redis's protocol (RESP2): a command goes out as an array of
 * bulk strings, one reply comes back. Enough for the YCSB baseline; as a stock client does, it
 * buffers both ways and sends one command at a time.
 */
final class RespConnection implements Closeable {

  /** A reply Redis sent as an error ("-ERR ..."). */
  static final class RedisError extends IOException {
    RedisError(String message) {
      super(message);
    }
  }

  private final Socket socket;
  private final OutputStream out;
  private final DataInputStream in;

  RespConnection(InetSocketAddress address, int timeoutMs) throws IOException {
    socket = new Socket();
    socket.setTcpNoDelay(true);
    socket.connect(address, timeoutMs);
    socket.setSoTimeout(timeoutMs);
    out = new BufferedOutputStream(socket.getOutputStream(), 16 * 1024);
    in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), 16 * 1024));
  }

  /**
   * Sends {@code args} and returns the reply: a {@code String} (status), {@code Long}, {@code
   * byte[]} (bulk, null when nil) or {@code List<Object>} of those.
   *
   * @throws RedisError when Redis answers with an error
   */
  Object call(List<byte[]> args) throws IOException {
    writeLine("*" + args.size());
    for (byte[] arg : args) {
      writeLine("$" + arg.length);
      out.write(arg);
      out.write('\r');
      out.write('\n');
    }
    out.flush();
    return readReply();
  }

  private void writeLine(String line) throws IOException {
    out.write(line.getBytes(StandardCharsets.US_ASCII));
    out.write('\r');
    out.write('\n');
  }

  private Object readReply() throws IOException {
    int type = in.read();
    String line = readLine();
    switch (type) {
      case '+':
        return line;
      case '-':
        throw new RedisError(line);
      case ':':
        return Long.parseLong(line);
      case '$': {
        int length = Integer.parseInt(line);
        if (length < 0) {
          return null;
        }
        byte[] bulk = new byte[length];
        in.readFully(bulk);
        readLine(); // the bulk's CRLF
        return bulk;
      }
      case '*': {
        int count = Integer.parseInt(line);
        List<Object> items = new ArrayList<>(Math.max(count, 0));
        for (int i = 0; i < count; i++) {
          items.add(readReply());
        }
        return items;
      }
      case -1:
        throw new EOFException("Redis closed the connection");
      default:
        throw new IOException("not a RESP reply: type byte " + type);
    }
  }

  private String readLine() throws IOException {
    StringBuilder line = new StringBuilder();
    for (int c = in.read(); c != '\r'; c = in.read()) {
      if (c < 0) {
        throw new EOFException("Redis closed the connection inside a reply");
      }
      line.append((char) c);
    }
    if (in.read() != '\n') {
      throw new IOException("a RESP line not ended by CRLF: " + line);
    }
    return line.toString();
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}

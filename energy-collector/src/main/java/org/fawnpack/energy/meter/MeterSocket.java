package org.fawnpack.energy.meter;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;

/**
 * A TCP socket to a meter whose every blocking call honours a {@link MeterDeadline}, and whose
 * failures are {@link MeterException}s with the cause keys the sampler logs once each:
 * "unreachable" (refused, no route, unknown host), "timeout", and "disconnected" (the peer closed
 * or reset the connection). Reads are buffered here rather than by a {@code BufferedInputStream}
 * so that the socket timeout can be set to what is left of the deadline before each refill.
 *
 * <p>Not thread-safe, except {@link #close()}, which may be called from another thread to unblock
 * a read.
 */
final class MeterSocket implements Closeable {
  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;
  private final TcpMeterAddress address;
  private final byte[] buffer = new byte[1024];
  private int position;
  private int limit;

  private MeterSocket(Socket socket, TcpMeterAddress address) throws IOException {
    this.socket = socket;
    this.in = socket.getInputStream();
    this.out = socket.getOutputStream();
    this.address = address;
  }

  /** Connects within what is left of {@code deadline}. */
  static MeterSocket connect(TcpMeterAddress address, MeterDeadline deadline)
      throws MeterException {
    String doing = "connect to " + address;
    // Resolved on every connect, so a DHCP or DNS change is picked up after a failure.
    InetSocketAddress target = new InetSocketAddress(address.host(), address.port());
    if (target.isUnresolved()) {
      throw new MeterException("unreachable", doing + " failed: unknown host " + address.host());
    }
    Socket socket = new Socket();
    try {
      socket.setTcpNoDelay(true); // queries are a few bytes; do not wait to coalesce them
      socket.connect(target, deadline.remainingMillis(doing));
      return new MeterSocket(socket, address);
    } catch (SocketTimeoutException e) {
      closeQuietly(socket);
      throw deadline.timedOut(doing);
    } catch (MeterException e) {
      closeQuietly(socket);
      throw e;
    } catch (IOException e) {
      closeQuietly(socket);
      throw new MeterException("unreachable", doing + " failed: " + e, e);
    }
  }

  TcpMeterAddress address() {
    return address;
  }

  void write(byte[] bytes, String doing) throws MeterException {
    try {
      out.write(bytes);
      out.flush();
    } catch (IOException e) {
      throw disconnected(doing, e);
    }
  }

  /** The next byte (0..255), or -1 when the peer has closed the connection. */
  int read(MeterDeadline deadline, String doing) throws MeterException {
    if (position == limit) {
      try {
        socket.setSoTimeout(deadline.remainingMillis(doing));
        int n = in.read(buffer);
        if (n < 0) {
          return -1;
        }
        position = 0;
        limit = n;
      } catch (SocketTimeoutException e) {
        throw deadline.timedOut(doing);
      } catch (IOException e) {
        throw disconnected(doing, e);
      }
    }
    return buffer[position++] & 0xff;
  }

  /** Fills {@code into} completely; at EOF throws "disconnected". */
  void readFully(byte[] into, MeterDeadline deadline, String doing) throws MeterException {
    for (int i = 0; i < into.length; i++) {
      int b = read(deadline, doing);
      if (b < 0) {
        throw closedByPeer(doing);
      }
      into[i] = (byte) b;
    }
  }

  MeterException closedByPeer(String doing) {
    return new MeterException("disconnected", "the peer closed the connection during " + doing);
  }

  private MeterException disconnected(String doing, IOException e) {
    return new MeterException("disconnected", doing + " failed: " + e, e);
  }

  @Override
  public void close() {
    closeQuietly(socket);
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException e) {
      // Nothing to do: the socket is gone either way, and the read already failed or finished.
    }
  }
}

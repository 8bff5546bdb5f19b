package org.fawnpack.kv.wire;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import org.fawnpack.kv.auth.ClusterSecret;

/** A client socket that has proved the cluster secret ({@link Handshake}), with its streams. */
record AuthenticatedSocket(Socket socket, DataInputStream in, DataOutputStream out) {

  /**
   * Connects to {@code address} and runs the handshake, each within {@code timeout}; the
   * socket's read timeout is left at {@code timeout}.
   */
  static AuthenticatedSocket open(InetSocketAddress address, Duration timeout,
      ClusterSecret secret) throws IOException {
    Socket socket = new Socket();
    try {
      socket.setTcpNoDelay(true);
      socket.connect(address, (int) timeout.toMillis());
      socket.setSoTimeout((int) timeout.toMillis());
      DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
      DataOutputStream out = new DataOutputStream(
          new BufferedOutputStream(socket.getOutputStream()));
      Handshake.connect(in, out, secret);
      return new AuthenticatedSocket(socket, in, out);
    } catch (IOException e) {
      socket.close();
      throw new IOException("cannot connect to " + address + ": " + e.getMessage(), e);
    }
  }
}

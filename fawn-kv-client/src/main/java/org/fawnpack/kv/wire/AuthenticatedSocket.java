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

  /** {@code plain}, wrapped in TLS with the secret's credentials, handshake done. */
  private static Socket inTls(Socket plain, InetSocketAddress address, ClusterSecret secret)
      throws IOException {
    javax.net.ssl.SSLSocket tls = (javax.net.ssl.SSLSocket) secret.tls().orElseThrow()
        .socketFactory().createSocket(plain, address.getHostString(), address.getPort(), true);
    try {
      tls.startHandshake();
    } catch (javax.net.ssl.SSLException e) {
      tls.close();
      throw new IOException("TLS handshake failed: " + e.getMessage(), e);
    }
    return tls;
  }

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
      if (secret.tls().isPresent()) {
        socket = inTls(socket, address, secret);
      }
      DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
      DataOutputStream out = new DataOutputStream(
          new BufferedOutputStream(socket.getOutputStream()));
      Handshake.connect(in, out, secret);
      return new AuthenticatedSocket(socket, in, out);
    } catch (IOException e) {
      socket.close();
      // Under TLS 1.3 a refused certificate shows as an alert at the first read, not at once.
      String tls = e instanceof javax.net.ssl.SSLException
          && !e.getMessage().startsWith("TLS handshake failed") ? "TLS handshake failed: " : "";
      throw new IOException("cannot connect to " + address + ": " + tls + e.getMessage(), e);
    }
  }
}

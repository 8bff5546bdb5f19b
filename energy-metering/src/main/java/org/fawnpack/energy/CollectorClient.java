package org.fawnpack.energy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** Asks the collector on this node's loopback for one container's energy. */
public final class CollectorClient {
  private final int port;
  private final int timeoutMillis;

  public CollectorClient(int port, int timeoutMillis) {
    this.port = port;
    this.timeoutMillis = timeoutMillis;
  }

  /** The container's account so far; the collector takes a fresh sample before answering. */
  public ContainerEnergy containerEnergy(String containerId) throws IOException {
    String answer = ask(EnergyProtocol.ENERGY + " " + containerId);
    return ContainerEnergy.fromWire(answer);
  }

  /** Sends one request line and returns the text after {@code OK}. */
  public String ask(String request) throws IOException {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), timeoutMillis);
      socket.setSoTimeout(timeoutMillis);
      OutputStream out = socket.getOutputStream();
      out.write((request + "\n").getBytes(StandardCharsets.UTF_8));
      out.flush();
      BufferedReader in = new BufferedReader(
          new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
      String line = in.readLine();
      if (line == null) {
        throw new IOException("collector on port " + port + " closed without answering '"
            + request + "'");
      }
      if (line.startsWith(EnergyProtocol.OK)) {
        return line.substring(EnergyProtocol.OK.length()).trim();
      }
      String message = "collector on port " + port + " answered '" + line + "' to '" + request
          + "'";
      if (line.startsWith(EnergyProtocol.ERR + " " + EnergyProtocol.UNKNOWN_CONTAINER)) {
        throw new UnknownContainerException(message);
      }
      throw new IOException(message);
    }
  }
}

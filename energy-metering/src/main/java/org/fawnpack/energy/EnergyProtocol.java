package org.fawnpack.energy;

import java.nio.ByteBuffer;
import java.util.Base64;

/**
 * How a task talks to the NodeManager's collector. The service publishes its loopback port as
 * aux-service metadata (4 bytes, big-endian); YARN puts that, Base64-encoded, into every
 * container's environment as {@code NM_AUX_SERVICE_fawn_energy}. The protocol is one text line
 * each way, so an operator can ask by hand: {@code echo "ENERGY <containerId>" | nc 127.0.0.1 <port>}.
 */
public final class EnergyProtocol {
  /** The aux-service name, in yarn-site.xml and in the environment variable. */
  public static final String SERVICE_NAME = "fawn_energy";
  public static final String ENV_METADATA = "NM_AUX_SERVICE_" + SERVICE_NAME;

  /** {@code ENERGY <containerId>} → {@code OK <ContainerEnergy wire form>} or {@code ERR <why>}. */
  public static final String ENERGY = "ENERGY";
  /** {@code NODE} → {@code OK watts=.. metered_uj=.. node_idle_uj=.. samples=.. gaps=..}. */
  public static final String NODE = "NODE";
  public static final String OK = "OK";
  /** What follows {@link #ERR} when the collector has no account for the container asked. */
  public static final String UNKNOWN_CONTAINER = "unknown container";
  public static final String ERR = "ERR";

  private EnergyProtocol() {
  }

  public static ByteBuffer encodePort(int port) {
    ByteBuffer buffer = ByteBuffer.allocate(4);
    buffer.putInt(port);
    buffer.flip();
    return buffer;
  }

  /** Decodes the environment variable's value; throws IllegalArgumentException if malformed. */
  public static int decodePort(String base64) {
    byte[] bytes = Base64.getDecoder().decode(base64.trim());
    if (bytes.length != 4) {
      throw new IllegalArgumentException(ENV_METADATA + " holds " + bytes.length
          + " bytes, expected a 4-byte port");
    }
    int port = ByteBuffer.wrap(bytes).getInt();
    if (port <= 0 || port > 65535) {
      throw new IllegalArgumentException(ENV_METADATA + " holds port " + port);
    }
    return port;
  }
}

package org.fawnpack.energy.meter;

import org.apache.hadoop.conf.Configuration;

/** Builds a {@link MeterSpec} from setting/value pairs, for meter tests. */
final class MeterSpecs {
  private MeterSpecs() {
  }

  /** {@code settingsAndValues}: "address", "127.0.0.1:5025", "mode", "power", ... */
  static MeterSpec of(String name, String... settingsAndValues) {
    Configuration conf = new Configuration(false);
    for (int i = 0; i < settingsAndValues.length; i += 2) {
      conf.set(MeterSpec.PREFIX + name + "." + settingsAndValues[i], settingsAndValues[i + 1]);
    }
    return new MeterSpec(name, conf);
  }

  /** A loopback address where nothing listens: a port that was just bound and released. */
  static String closedLoopbackPort() throws java.io.IOException {
    try (java.net.ServerSocket socket =
        new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return socket.getInetAddress().getHostAddress() + ":" + socket.getLocalPort();
    }
  }
}

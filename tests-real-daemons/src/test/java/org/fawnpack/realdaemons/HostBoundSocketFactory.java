package org.fawnpack.realdaemons;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import org.apache.hadoop.conf.Configurable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.net.StandardSocketFactory;

/**
 * What a DataNode on a machine of its own gets for free: its calls to the NameNode come from its
 * host's address. On one machine every loopback connection leaves from 127.0.0.1, so the
 * NameNode would register every DataNode at 127.0.0.1 and look all of them up in the rack
 * table under that one address. Set as {@code hadoop.rpc.socket.factory.class.DatanodeProtocolPB}
 * in a slave's hdfs-site (the test inventory's override), it binds each such socket to
 * {@code fawn.test.bind-address} before Hadoop connects it; nothing else uses it.
 */
public final class HostBoundSocketFactory extends StandardSocketFactory implements Configurable {
  static final String BIND_ADDRESS = "fawn.test.bind-address";
  private Configuration conf;
  private InetAddress local;

  @Override
  public void setConf(Configuration configuration) {
    conf = configuration;
    String address = configuration.get(BIND_ADDRESS);
    if (address == null) {
      throw new IllegalArgumentException(BIND_ADDRESS + " is not set for "
          + HostBoundSocketFactory.class.getName());
    }
    try {
      local = InetAddress.getByName(address);
    } catch (IOException e) {
      throw new IllegalArgumentException(BIND_ADDRESS + "=" + address + ": " + e, e);
    }
  }

  @Override
  public Configuration getConf() {
    return conf;
  }

  @Override
  public Socket createSocket() throws IOException {
    Socket socket = super.createSocket();
    socket.bind(new InetSocketAddress(local, 0));
    return socket;
  }

  // Hadoop caches proxies by socket factory: factories of one address are one.
  @Override
  public boolean equals(Object other) {
    return other instanceof HostBoundSocketFactory f && f.local.equals(local);
  }

  @Override
  public int hashCode() {
    return local.hashCode();
  }
}

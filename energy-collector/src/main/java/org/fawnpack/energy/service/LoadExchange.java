package org.fawnpack.energy.service;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How the collectors of a shared meter's hosts tell one another their CPU use, for
 * {@link LoadShares}: each sample, one small UDP datagram to every other host of each such
 * meter ({@code fawn-energy-load v1 <meter> <host> <cpu share>}); a receiver thread hands what
 * arrives to the meter's shares. A datagram from an address that is not a listed peer of that
 * meter, or that does not parse, is dropped (and logged once), so no other machine can move a
 * host's bookings. UDP because a lost figure costs one interval's split, never a wait.
 */
final class LoadExchange implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(LoadExchange.class);
  static final String MAGIC = "fawn-energy-load v1";

  private final DatagramChannel channel;
  private final List<LoadShares> meters;
  private final Thread receiver;
  private volatile boolean closed;
  private boolean warnedDropped;

  LoadExchange(int port, List<LoadShares> meters) throws IOException {
    this.meters = List.copyOf(meters);
    this.channel = DatagramChannel.open();
    try {
      channel.bind(new InetSocketAddress(port));
    } catch (IOException e) {
      channel.close();
      throw new IOException("cannot listen for shared meters' load figures on UDP port " + port
          + " (fawn.energy.load.port): " + e.getMessage(), e);
    }
    this.receiver = new Thread(this::receive, "fawn-energy-load");
    receiver.setDaemon(true);
    receiver.start();
  }

  int port() throws IOException {
    return ((InetSocketAddress) channel.getLocalAddress()).getPort();
  }

  /** Sends this host's CPU share of the interval to every peer of every shared meter. */
  void publish() {
    for (LoadShares shares : meters) {
      double cpu = shares.ownCpu();
      if (Double.isNaN(cpu)) {
        continue;
      }
      ByteBuffer datagram = ByteBuffer.wrap(String.format(Locale.ROOT, "%s %s %s %.6f",
          MAGIC, shares.meter(), shares.self(), cpu).getBytes(StandardCharsets.UTF_8));
      for (LoadShares.Peer peer : shares.peers()) {
        try {
          channel.send(datagram.duplicate(), peer.address());
        } catch (IOException e) {
          LOG.debug("load figure to {} not sent: {}", peer, e.toString());
        }
      }
    }
  }

  private void receive() {
    ByteBuffer buffer = ByteBuffer.allocate(512);
    while (!closed) {
      try {
        buffer.clear();
        SocketAddress from = channel.receive(buffer);
        buffer.flip();
        take(new String(buffer.array(), 0, buffer.limit(), StandardCharsets.UTF_8), from);
      } catch (ClosedChannelException e) {
        return;
      } catch (IOException | RuntimeException e) {
        if (!closed) {
          LOG.warn("load figures: {}", e.toString());
        }
      }
    }
  }

  private void take(String text, SocketAddress from) {
    String[] words = text.trim().split(" ");
    if (words.length == 5 && (words[0] + " " + words[1]).equals(MAGIC)) {
      for (LoadShares shares : meters) {
        if (shares.meter().equals(words[2]) && fromPeer(shares, words[3], from)) {
          try {
            if (shares.peerCpu(words[3], Double.parseDouble(words[4]))) {
              return;
            }
          } catch (NumberFormatException e) {
            break;
          }
        }
      }
    }
    if (!warnedDropped) {
      warnedDropped = true; // once: a stray sender must not flood the NodeManager's log
      LOG.warn("dropped a load figure from {} that is not a listed host of a shared meter: '{}'",
          from, text.length() > 80 ? text.substring(0, 80) : text);
    }
  }

  /** Whether {@code from} is the address of {@code host} as this meter lists it. */
  private static boolean fromPeer(LoadShares shares, String host, SocketAddress from) {
    if (!(from instanceof InetSocketAddress sender)) {
      return false;
    }
    for (LoadShares.Peer p : shares.peers()) {
      if (p.name().equals(host)) {
        InetAddress listed = p.address().getAddress();
        return listed != null && listed.equals(sender.getAddress());
      }
    }
    return false;
  }

  @Override
  public void close() throws IOException {
    closed = true;
    channel.close();
  }
}

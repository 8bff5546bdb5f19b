package org.fawnpack.kv.client;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import org.fawnpack.kv.auth.ClusterSecret;
import org.fawnpack.kv.backend.Backend;
import org.fawnpack.kv.wire.Connection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A client's connection to one of several front-ends: opened to the first that answers, and
 * after it breaks, to the next one in turn. Thread-safe; requests share the open connection.
 */
final class FrontEndLink implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(FrontEndLink.class);

  private final List<InetSocketAddress> frontEnds;
  private final Duration connectTimeout;
  private final ClusterSecret secret;
  private Connection connection; // guarded by this
  private int current; // guarded by this: the front-end in use, or to try first

  FrontEndLink(List<InetSocketAddress> frontEnds, Duration connectTimeout,
      ClusterSecret secret) {
    this.frontEnds = List.copyOf(frontEnds);
    this.connectTimeout = connectTimeout;
    this.secret = secret;
  }

  /** The open connection, or one to the next front-end that answers. */
  synchronized Connection connection() throws KvException {
    if (connection != null && !connection.isBroken()) {
      return connection;
    }
    IOException last = null;
    for (int tried = 0; tried < frontEnds.size(); tried++) {
      try {
        connection = Connection.open(frontEnds.get(current), connectTimeout,
            Backend.MAX_FRAME_BYTES, secret);
        return connection;
      } catch (IOException e) {
        LOG.debug("front-end {} not reachable: {}", frontEnds.get(current), e.getMessage());
        last = e;
        current = (current + 1) % frontEnds.size();
      }
    }
    throw new KvException("no front-end of " + frontEnds + " can be reached; the last said: "
        + last.getMessage(), true);
  }

  /**
   * {@link #connection()} for a retry: when no front-end can be reached, the failure is not
   * "refused" if an earlier try may have taken effect.
   */
  Connection connection(boolean earlierTryMayHaveApplied) throws KvException {
    try {
      return connection();
    } catch (KvException e) {
      if (earlierTryMayHaveApplied) {
        throw new KvException(e.getMessage() + " (an earlier try may have taken effect)", false);
      }
      throw e;
    }
  }

  /** {@code broken} failed: the next request goes to the next front-end. */
  synchronized void moveOn(Connection broken) {
    if (connection == broken) {
      connection = null;
      current = (current + 1) % frontEnds.size();
    }
  }

  @Override
  public synchronized void close() {
    if (connection != null) {
      connection.close();
    }
  }
}

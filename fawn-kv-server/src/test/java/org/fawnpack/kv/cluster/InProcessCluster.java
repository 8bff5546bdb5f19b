package org.fawnpack.kv.cluster;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.fawnpack.kv.auth.ClusterSecret;
import org.fawnpack.kv.backend.Backend;
import org.fawnpack.kv.frontend.FrontEnd;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.ring.RingHash;
import org.fawnpack.kv.store.DatastoreConfig;

/**
 * Back-ends (b0, b1, ... on 127.0.0.1, .2, ...) and a front-end in the test's JVM, with no
 * ZooKeeper: the test hands each epoch of the ring to every node itself ({@link #useRing}),
 * so it decides exactly when a member is down, copying or back. One virtual node per
 * back-end, chains of three.
 */
final class InProcessCluster implements Closeable {
  static final DatastoreConfig CONFIG = DatastoreConfig.builder().expectedKeys(64).build();

  final Map<String, Backend> backends = new HashMap<>();
  final FrontEnd frontEnd;
  private final Path dir;
  private final ClusterSecret secret;
  Ring ring;

  InProcessCluster(Path dir, String ringKey, int backendCount, ClusterSecret secret)
      throws IOException {
    this.dir = dir;
    this.secret = secret;
    ring = Ring.empty(new RingHash(ringKey.getBytes(StandardCharsets.UTF_8)), 1, 3);
    for (int i = 0; i < backendCount; i++) {
      Backend b = Backend.open("b" + i, new InetSocketAddress("127.0.0." + (i + 1), 0),
          dir.resolve("b" + i), CONFIG, secret);
      backends.put("b" + i, b);
      ring = ring.withMember(b.member());
    }
    frontEnd = FrontEnd.open("f", new InetSocketAddress("127.0.0.1", 0), secret);
    useRing(ring);
  }

  /** Every node serves {@code next} from now on. */
  void useRing(Ring next) throws IOException {
    ring = next;
    for (Backend b : backends.values()) {
      b.useRing(next);
    }
    frontEnd.useRing(next);
  }

  /** Back-end {@code id} stops cleanly and starts again on its files, at another port. */
  Backend restart(String id) throws IOException {
    String host = backends.get(id).member().host();
    backends.remove(id).close();
    Backend again = Backend.open(id, new InetSocketAddress(host, 0), dir.resolve(id), CONFIG,
        secret);
    backends.put(id, again);
    return again;
  }

  @Override
  public void close() throws IOException {
    frontEnd.close();
    for (Backend b : backends.values()) {
      b.close();
    }
  }
}

package org.fawnpack.kv.frontend;

import java.io.Closeable;
import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.fawnpack.kv.coord.ClusterPaths;
import org.fawnpack.kv.coord.FrontEndRegistration;
import org.fawnpack.kv.coord.SliceStore;
import org.fawnpack.kv.slice.SliceMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ties a front-end to the slices in ZooKeeper: registers it, hands it every slice map, sends
 * its acknowledgements, and stops it from serving while its ZooKeeper connection is suspended
 * (once its session expires, its slice goes to others). After a reconnect it reads the map
 * afresh before it serves again: a watch event may have been missed meanwhile.
 */
public final class SliceFollower implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(SliceFollower.class);

  private final FrontEnd frontEnd;
  private final CuratorFramework zk;
  private final SliceStore store;
  private final ScheduledExecutorService events;
  private FrontEndRegistration registration;
  private Closeable watch;
  private boolean connected = true; // guarded by this
  private final ConnectionStateListener onConnection = this::connectionChanged;

  private SliceFollower(FrontEnd frontEnd, CuratorFramework zk, ClusterPaths paths) {
    this.frontEnd = frontEnd;
    this.zk = zk;
    this.store = new SliceStore(zk, paths);
    this.events = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "fawn-kv-slices-" + frontEnd.endpoint().name());
      t.setDaemon(true);
      return t;
    });
  }

  /** Registers {@code frontEnd} and follows the cluster's slice map from now on. */
  public static SliceFollower follow(FrontEnd frontEnd, CuratorFramework zk,
      ClusterPaths paths) throws IOException {
    SliceFollower follower = new SliceFollower(frontEnd, zk, paths);
    follower.registration = FrontEndRegistration.register(zk, paths, frontEnd.endpoint());
    frontEnd.gate.acknowledgeThrough(follower.registration::acknowledge);
    zk.getConnectionStateListenable().addListener(follower.onConnection);
    follower.watch = follower.store.watch(map -> follower.events.execute(
        () -> follower.use(map)));
    return follower;
  }

  private synchronized void use(SliceMap map) {
    frontEnd.gate.apply(map);
    if (connected) {
      frontEnd.gate.open();
    }
  }

  private void connectionChanged(CuratorFramework client, ConnectionState state) {
    if (state == ConnectionState.SUSPENDED || state == ConnectionState.LOST) {
      synchronized (this) {
        connected = false;
        frontEnd.gate.suspend("lost its ZooKeeper connection (" + state + ")");
      }
      LOG.warn("front-end {} takes no requests: ZooKeeper connection {}",
          frontEnd.endpoint().name(), state);
    } else if (state == ConnectionState.RECONNECTED) {
      events.execute(this::reconnected);
    }
  }

  private void reconnected() {
    try {
      Optional<SliceStore.Versioned> stored = store.read();
      synchronized (this) {
        stored.ifPresent(v -> frontEnd.gate.apply(v.map()));
        connected = true;
        if (frontEnd.gate.map() != null) {
          frontEnd.gate.open();
        }
      }
      LOG.info("front-end {} reconnected to ZooKeeper; serves by {}", frontEnd.endpoint().name(),
          frontEnd.gate.map());
    } catch (IOException e) {
      LOG.warn("front-end {} reconnected but cannot read the slice map; serves nothing until it"
          + " can: {}", frontEnd.endpoint().name(), e.getMessage());
      if (!events.isShutdown()) {
        events.schedule(this::reconnected, 1, TimeUnit.SECONDS);
      }
    }
  }

  /** Stops serving first: once its registration goes, its slice goes to others at once. */
  @Override
  public void close() throws IOException {
    synchronized (this) {
      connected = false;
      frontEnd.gate.suspend("is stopping");
    }
    zk.getConnectionStateListenable().removeListener(onConnection);
    events.shutdownNow();
    if (watch != null) {
      watch.close();
    }
    if (registration != null) {
      registration.close();
    }
  }
}

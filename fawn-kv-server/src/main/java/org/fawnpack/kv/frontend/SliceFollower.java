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
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.fawnpack.kv.coord.BackendRegistration;
import org.fawnpack.kv.coord.FrontEndRegistration;
import org.fawnpack.kv.slice.SliceMap;
import org.fawnpack.kv.zookeeper.ClusterPaths;
import org.fawnpack.kv.zookeeper.SliceStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ties a front-end to the slices in ZooKeeper: registers it, hands it every slice map, sends
 * its acknowledgements, fences the back-ends before it serves keys it gained ({@link
 * BackendFencing}), and stops it from serving while its ZooKeeper connection is suspended or
 * its {@link Lease} ran out (once its session expires, its slice goes to others). The lease is
 * renewed every sixth of the session timeout by a read of the slice map, once the front-end's
 * registration is found held by its current session: so after a new session it serves only by
 * a map read after it registered again, which the coordinator then waits for before it gives
 * that front-end's slice away. After a reconnect it reads the map afresh before it serves
 * again: a watch event may have been missed meanwhile.
 */
public final class SliceFollower implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(SliceFollower.class);

  private final FrontEnd frontEnd;
  private final CuratorFramework zk;
  private final ClusterPaths paths;
  private final SliceStore store;
  private final ScheduledExecutorService events;
  private final ScheduledExecutorService leases;
  private FrontEndRegistration registration;
  private Closeable watch;
  private boolean connected = true; // guarded by this
  private final ConnectionStateListener onConnection = this::connectionChanged;

  private SliceFollower(FrontEnd frontEnd, CuratorFramework zk, ClusterPaths paths) {
    this.frontEnd = frontEnd;
    this.zk = zk;
    this.paths = paths;
    this.store = new SliceStore(zk, paths);
    this.events = daemon("fawn-kv-slices-" + frontEnd.endpoint().name());
    this.leases = daemon("fawn-kv-lease-" + frontEnd.endpoint().name());
  }

  private static ScheduledExecutorService daemon(String name) {
    return Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    });
  }

  /** Registers {@code frontEnd} and follows the cluster's slice map from now on. */
  public static SliceFollower follow(FrontEnd frontEnd, CuratorFramework zk,
      ClusterPaths paths) throws IOException {
    SliceFollower follower = new SliceFollower(frontEnd, zk, paths);
    follower.registration = FrontEndRegistration.register(zk, paths, frontEnd.endpoint());
    frontEnd.gate.acknowledgeThrough(follower.registration::acknowledge,
        frontEnd.backoffs().zookeeper());
    frontEnd.fenceBackends(() -> BackendRegistration.liveMembers(zk, paths));
    zk.getConnectionStateListenable().addListener(follower.onConnection);
    follower.renewLease(); // before the first map: it serves only once both are in
    follower.watch = follower.store.watch(map -> follower.events.execute(
        () -> follower.use(map)));
    return follower;
  }

  /**
   * Renews the lease if the front-end's registration is held by its current ZooKeeper session,
   * applying the map read with it first; then again in a sixth of the session timeout.
   */
  private void renewLease() {
    long sentAt = System.nanoTime();
    int timeoutMs = 0;
    try {
      ZooKeeper client = zk.getZookeeperClient().getZooKeeper();
      long session = client.getSessionId();
      timeoutMs = client.getSessionTimeout(); // as negotiated with the server
      Stat held = zk.checkExists().forPath(paths.frontEnd(frontEnd.endpoint().name()));
      if (timeoutMs <= 0 || held == null || held.getEphemeralOwner() != session) {
        LOG.debug("front-end {}: no lease yet: its registration is not held by session 0x{}",
            frontEnd.endpoint().name(), Long.toHexString(session));
      } else {
        Optional<SliceStore.Versioned> stored = store.read();
        stored.ifPresent(v -> use(v.map()));
        frontEnd.gate.renewLease(sentAt, TimeUnit.MILLISECONDS.toNanos(timeoutMs) * 2 / 3);
      }
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
        return;
      }
      LOG.debug("front-end {}: lease not renewed: {}", frontEnd.endpoint().name(),
          e.toString());
    }
    long pauseMs = timeoutMs > 0 ? Math.max(50, timeoutMs / 6) : 200;
    if (!leases.isShutdown()) {
      try {
        leases.schedule(this::renewLease, pauseMs, TimeUnit.MILLISECONDS);
      } catch (java.util.concurrent.RejectedExecutionException e) {
        LOG.debug("front-end {} closing: lease no longer renewed", frontEnd.endpoint().name());
      }
    }
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
    leases.shutdownNow();
    events.shutdownNow();
    if (watch != null) {
      watch.close();
    }
    if (registration != null) {
      registration.close();
    }
  }
}

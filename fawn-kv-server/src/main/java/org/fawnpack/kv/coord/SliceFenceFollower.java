package org.fawnpack.kv.coord;

import java.io.Closeable;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.zookeeper.data.Stat;
import org.fawnpack.kv.zookeeper.ClusterPaths;
import org.fawnpack.kv.zookeeper.SliceStore;
import org.fawnpack.kv.time.Backoff;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives a back-end its slice fence from ZooKeeper (see {@code backend.SliceFence}): the slice
 * map's epoch, read once the back-end's registration is held by its current session, and again
 * after every new session. Front-ends fence the back-ends registered when they take over keys;
 * one that registers later reads a map at least as new as theirs (its read follows its own
 * registration, which the front-ends' listing did not see), and one whose session ended may
 * have missed fences meanwhile, so it takes no write from the end of a session until it read
 * the map again.
 */
public final class SliceFenceFollower implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(SliceFenceFollower.class);

  private final CuratorFramework zk;
  private final ClusterPaths paths;
  private final String id;
  private final Runnable unknown;
  private final LongConsumer learned;
  private final ScheduledExecutorService thread;
  /** Between looks that found nothing yet or failed ({@code fawn.kv.backoff.zookeeper.*}). */
  private final Backoff pauses;
  /** The next such pause (on the follower's thread; reset by a look that learned). */
  private long nextPauseMs = -1;
  private final ConnectionStateListener onConnection = this::connectionChanged;
  private long learnedInSession; // guarded by this; 0: none

  private SliceFenceFollower(CuratorFramework zk, ClusterPaths paths, String id,
      Runnable unknown, LongConsumer learned, Backoff pauses) {
    this.zk = zk;
    this.pauses = pauses;
    this.paths = paths;
    this.id = id;
    this.unknown = unknown;
    this.learned = learned;
    this.thread = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "fawn-kv-fence-follower-" + id);
      t.setDaemon(true);
      return t;
    });
  }

  /**
   * Marks the fence of back-end {@code id} unknown ({@code unknown}) and learns it ({@code
   * learned}, with the slice epoch) once its registration exists, and after each new session;
   * looks again after {@code pauses} while it finds no registration or ZooKeeper fails.
   */
  public static SliceFenceFollower follow(CuratorFramework zk, ClusterPaths paths, String id,
      Runnable unknown, LongConsumer learned, Backoff pauses) {
    SliceFenceFollower follower = new SliceFenceFollower(zk, paths, id, unknown, learned,
        pauses);
    unknown.run();
    zk.getConnectionStateListenable().addListener(follower.onConnection);
    follower.soon(0);
    return follower;
  }

  private void connectionChanged(CuratorFramework client, ConnectionState state) {
    if (state == ConnectionState.LOST) {
      synchronized (this) {
        learnedInSession = 0;
      }
      unknown.run();
      soon(pauses.firstPauseMs());
    } else if (state == ConnectionState.RECONNECTED) {
      soon(0); // a new session, maybe, without a LOST seen: look
    }
  }

  private void look() {
    try {
      long session = zk.getZookeeperClient().getZooKeeper().getSessionId();
      synchronized (this) {
        if (session != 0 && session == learnedInSession) {
          return;
        }
      }
      Stat held = zk.checkExists().forPath(paths.backend(id));
      if (held == null || held.getEphemeralOwner() != session) {
        lookAgain(); // not registered in this session yet
        return;
      }
      unknown.run(); // a session not seen before: nothing until its map is read
      Optional<SliceStore.Versioned> map = new SliceStore(zk, paths).read();
      learned.accept(map.map(v -> v.map().epoch()).orElse(0L));
      synchronized (this) {
        learnedInSession = session;
      }
      nextPauseMs = -1;
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
        return;
      }
      LOG.debug("backend {}: slice fence not read yet: {}", id, e.toString());
      lookAgain();
    }
  }

  private void lookAgain() {
    long pause = nextPauseMs < 0 ? pauses.firstPauseMs() : nextPauseMs;
    nextPauseMs = pauses.next(pause);
    soon(pause);
  }

  private void soon(long delayMs) {
    try {
      thread.schedule(this::look, delayMs, TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      LOG.debug("backend {}: closing; the fence is no longer followed", id);
    }
  }

  @Override
  public void close() {
    zk.getConnectionStateListenable().removeListener(onConnection);
    thread.shutdownNow();
  }
}

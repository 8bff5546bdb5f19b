package org.fawnpack.kv.coord;

import java.io.Closeable;
import java.io.IOException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.fawnpack.kv.time.Backoff;
import org.fawnpack.kv.time.Backoffs;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.leader.LeaderLatchListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A check that only the elected leader runs (Curator's LeaderLatch), on one thread so checks
 * never overlap and never block Curator's event thread. A check that fails is tried again
 * after a pause ({@code fawn.kv.backoff.zookeeper.*}: 200 ms, doubling to a second), until one
 * succeeds: the events that asked for it (a node's departure, say) fire only once.
 */
final class LeaderLoop implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(LeaderLoop.class);

  /** What the leader does on each look. */
  interface Check {
    void run() throws IOException;
  }

  private final LeaderLatch latch;
  private final String who;
  private final Check check;
  private final ScheduledExecutorService thread;
  /** After a failed check (ZooKeeper unreachable, say), the next try: none may be lost. */
  private volatile Backoff retryPauses = Backoffs.DEFAULTS.zookeeper();
  /** The pause before the next try after a failure (touched on the loop's thread only). */
  private long nextRetryMs = -1;

  /** {@code who}: how logs name it ("coordinator f0"). */
  LeaderLoop(CuratorFramework zk, String electionPath, String name, String who, Check check) {
    this.latch = new LeaderLatch(zk, electionPath, name);
    this.who = who;
    this.check = check;
    this.thread = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "fawn-kv-" + who.replace(' ', '-'));
      t.setDaemon(true);
      return t;
    });
  }

  /** Joins the election; a new leader looks at once. */
  void start() throws IOException {
    latch.addListener(new LeaderLatchListener() {
      @Override
      public void isLeader() {
        LOG.info("{} leads", who);
        soon();
      }

      @Override
      public void notLeader() {
        LOG.info("{} no longer leads", who);
      }
    });
    try {
      latch.start();
    } catch (Exception e) {
      throw new IOException(who + " cannot join the election: " + e, e);
    }
  }

  /** The pauses after failed checks (before {@link #start}). */
  void retryPauses(Backoff pauses) {
    this.retryPauses = java.util.Objects.requireNonNull(pauses, "pauses");
  }

  boolean isLeader() {
    return latch.hasLeadership();
  }

  /** Looks as soon as the thread is free. */
  void soon() {
    after(0);
  }

  /** Looks in {@code ms} milliseconds. */
  void after(long ms) {
    if (!thread.isShutdown()) {
      try {
        thread.schedule(this::look, ms, TimeUnit.MILLISECONDS);
      } catch (RejectedExecutionException e) {
        LOG.debug("{} closed: no further look", who);
      }
    }
  }

  boolean isClosed() {
    return thread.isShutdown();
  }

  private void look() {
    if (!latch.hasLeadership()) {
      return;
    }
    try {
      check.run();
      nextRetryMs = -1;
    } catch (IOException | RuntimeException e) {
      long pause = nextRetryMs < 0 ? retryPauses.firstPauseMs() : nextRetryMs;
      nextRetryMs = retryPauses.next(pause);
      LOG.error("{}: check failed; trying again in {} ms", who, pause, e);
      after(pause);
    }
  }

  /** Leaves the election (another node's loop takes over). */
  @Override
  public void close() throws IOException {
    thread.shutdownNow();
    latch.close();
  }
}

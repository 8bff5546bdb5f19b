package org.fawnpack.kv.coord;

import java.io.Closeable;
import java.io.IOException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.leader.LeaderLatchListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A check that only the elected leader runs (Curator's LeaderLatch), on one thread so checks
 * never overlap and never block Curator's event thread. A check that fails is tried again a
 * second later: the events that asked for it (a node's departure, say) fire only once.
 */
final class LeaderLoop implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(LeaderLoop.class);
  /** After a failed check (ZooKeeper unreachable, say), the next try: none may be lost. */
  static final long RETRY_AFTER_FAILURE_MS = 1_000;

  /** What the leader does on each look. */
  interface Check {
    void run() throws IOException;
  }

  private final LeaderLatch latch;
  private final String who;
  private final Check check;
  private final ScheduledExecutorService thread;

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
    } catch (IOException | RuntimeException e) {
      LOG.error("{}: check failed; trying again in {} ms", who, RETRY_AFTER_FAILURE_MS, e);
      after(RETRY_AFTER_FAILURE_MS);
    }
  }

  /** Leaves the election (another node's loop takes over). */
  @Override
  public void close() throws IOException {
    thread.shutdownNow();
    latch.close();
  }
}

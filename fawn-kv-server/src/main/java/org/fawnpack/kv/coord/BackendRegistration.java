package org.fawnpack.kv.coord;

import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.nodes.PersistentNode;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.zookeeper.ClusterPaths;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A back-end's liveness in ZooKeeper: an ephemeral node {@code backends/<id>} holding
 * "host port" (then "domain=D" when it names a failure domain, and "crashed" when its last
 * run did not stop cleanly), alive as long as the
 * back-end's ZooKeeper session (and made again by Curator after a reconnect with a new
 * session).
 */
public final class BackendRegistration implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(BackendRegistration.class);
  private static final String CRASHED = "crashed";
  private static final String DOMAIN = "domain=";
  private final PersistentNode node;
  private final CuratorFramework zk;
  private final String stoppedMark;

  private final Member self;

  private BackendRegistration(PersistentNode node, CuratorFramework zk, String stoppedMark,
      Member self) {
    this.node = node;
    this.zk = zk;
    this.stoppedMark = stoppedMark;
    this.self = self;
  }

  /**
   * Registers {@code self}. A registration under its id left by an earlier session (this
   * back-end before a crash, its session not yet expired) is replaced in one transaction: were
   * it left to expire, the coordinator would see the id go and mark a running back-end down.
   * Ids are unique per back-end (and its data directory, which one process locks at a time).
   */
  public static BackendRegistration register(CuratorFramework zk, ClusterPaths paths,
      Member self) throws IOException {
    return register(zk, paths, self, false);
  }

  /**
   * Registers {@code self}; {@code crashed}: its last run did not stop cleanly, so its files
   * serve nothing and the coordinator is to mark it down (chain replication's fail-stop).
   */
  public static BackendRegistration register(CuratorFramework zk, ClusterPaths paths,
      Member self, boolean crashed) throws IOException {
    byte[] data = text(self, crashed).getBytes(StandardCharsets.UTF_8);
    replaceEarlierSession(zk, paths.backend(self.id()), data);
    PersistentNode node = new PersistentNode(zk, CreateMode.EPHEMERAL, false,
        paths.backend(self.id()), data);
    node.start();
    return new BackendRegistration(node, zk, paths.stopped(self.id()), self);
  }

  private static void replaceEarlierSession(CuratorFramework zk, String path, byte[] data)
      throws IOException {
    try {
      Stat stat = zk.checkExists().forPath(path);
      long session = zk.getZookeeperClient().getZooKeeper().getSessionId();
      if (stat == null || stat.getEphemeralOwner() == session) {
        return;
      }
      zk.transaction().forOperations(
          zk.transactionOp().delete().withVersion(stat.getVersion()).forPath(path),
          zk.transactionOp().create().withMode(CreateMode.EPHEMERAL).forPath(path, data));
      LOG.warn("{}: replaced the registration of an earlier session (0x{}) of this back-end",
          path, Long.toHexString(stat.getEphemeralOwner()));
    } catch (KeeperException.NoNodeException | KeeperException.BadVersionException e) {
      LOG.debug("{}: the earlier registration went by itself", path);
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      throw new IOException("cannot register at " + path + ": " + e, e);
    }
  }

  /**
   * The back-end no longer holds its crashed run's files (the ring brought it back and it
   * copies its arcs afresh): the registration drops "crashed", so the coordinator lets it
   * serve once its copies are done. A failure is logged: the coordinator would then mark it
   * down again once it serves, and bring it back when it registers.
   */
  public void clearCrashed() {
    try {
      node.waitForInitialCreate(10, java.util.concurrent.TimeUnit.SECONDS);
      node.setData(text(self, false).getBytes(StandardCharsets.UTF_8));
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      LOG.error("{}: cannot clear the crashed mark of back-end {}: {}", node.getActualPath(),
          self.id(), e.toString());
    }
  }

  /** Every back-end registered now (one that left while listed is left out). */
  static List<Registered> registered(CuratorFramework zk, ClusterPaths paths)
      throws IOException {
    try {
      List<Registered> members = new ArrayList<>();
      for (String id : zk.getChildren().forPath(paths.backends())) {
        try {
          members.add(read(id, zk.getData().forPath(paths.backend(id))));
        } catch (KeeperException.NoNodeException e) {
          LOG.debug("back-end {} left while being listed", id);
        } catch (IllegalArgumentException e) {
          LOG.error("back-end registration {} left out: {}", paths.backend(id), e.getMessage());
        }
      }
      return members;
    } catch (KeeperException.NoNodeException e) {
      return List.of();
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      throw new IOException("cannot list back-ends at " + paths.backends() + ": " + e, e);
    }
  }

  /** Where every back-end registered now says it listens. */
  public static List<Member> liveMembers(CuratorFramework zk, ClusterPaths paths)
      throws IOException {
    return registered(zk, paths).stream().map(Registered::member).toList();
  }

  /** A registration as read back: the member, and whether its last run crashed. */
  record Registered(Member member, boolean crashed) {}

  /** "host port", then "domain=D" for a failure domain of its own, then "crashed". */
  private static String text(Member self, boolean crashed) {
    return self.host() + " " + self.port() + (self.hasOwnDomain() ? " " + DOMAIN
        + self.domain() : "") + (crashed ? " " + CRASHED : "");
  }

  /** What a registration node says ({@link #text}). */
  static Registered read(String id, byte[] data) {
    String text = new String(data, StandardCharsets.UTF_8);
    String[] words = text.split(" ");
    String domain = null;
    boolean crashed = false;
    for (int i = 2; i < words.length; i++) {
      if (words[i].equals(CRASHED) && !crashed) {
        crashed = true;
      } else if (words[i].startsWith(DOMAIN) && domain == null && !crashed) {
        domain = words[i].substring(DOMAIN.length());
      } else {
        words = new String[0];
        break;
      }
    }
    if (words.length < 2) {
      throw new IllegalArgumentException("registration of back-end " + id + " is '" + text
          + "', expected 'host port', then 'domain=D' and/or '" + CRASHED + "'");
    }
    return new Registered(new Member(id, words[0], Integer.parseInt(words[1]), domain),
        crashed);
  }

  /**
   * A clean stop: leaves a persistent mark that this back-end stopped cleanly (the coordinator
   * then waits a grace period for it to come back before marking it down, as for a restart),
   * then removes the registration.
   */
  @Override
  public void close() throws IOException {
    try {
      zk.create().orSetData().creatingParentsIfNeeded().forPath(stoppedMark);
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      LOG.warn("{}: cannot mark the clean stop ({}); the coordinator will mark this back-end"
          + " down at once", stoppedMark, e.toString());
    }
    node.close();
  }
}

package org.fawnpack.kv.zookeeper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;

/**
 * A bulk load's state in ZooKeeper ({@code bulkloads/<job>}): absent (never begun, abandoned,
 * or done), {@code staging} (ephemeral, its driver's session: a driver that dies takes it
 * along, and back-ends drop the staged files), or {@code committed} with the arcs it loads
 * (persistent: from here the load must happen, even if its driver dies). The commit is one
 * ZooKeeper transaction that deletes the ephemeral node and creates the persistent one with
 * an ephemeral child {@code driver}, so there is no instant at which a staging load looks
 * committed or absent, and a committed load whose driver died shows by its missing child.
 */
public final class BulkLoadStore {
  private static final String STAGING = "staging";
  private static final String COMMITTED = "committed";
  /** The ephemeral child of a committed load, held by its driver's session. */
  private static final String DRIVER = "driver";

  /** What ZooKeeper says of one load. */
  public record State(boolean committed, Set<Long> arcEnds) {}

  private final CuratorFramework zk;
  private final ClusterPaths paths;

  public BulkLoadStore(CuratorFramework zk, ClusterPaths paths) {
    this.zk = zk;
    this.paths = paths;
  }

  /** Marks the job as staging under this session; refused if the job id is taken. */
  public void begin(String job) throws IOException {
    try {
      zk.create().creatingParentContainersIfNeeded().withMode(CreateMode.EPHEMERAL)
          .forPath(paths.bulkLoad(job), STAGING.getBytes(StandardCharsets.US_ASCII));
    } catch (KeeperException.NodeExistsException e) {
      throw new IOException("bulk load " + job + " exists already at " + paths.bulkLoad(job)
          + " (a job id is loaded once)", e);
    } catch (Exception e) {
      throw Znodes.failure("begin bulk load " + job, e);
    }
  }

  /** The commit point: the staging node becomes the persistent committed one, atomically. */
  public void commit(String job, Set<Long> arcEnds) throws IOException {
    StringBuilder text = new StringBuilder(COMMITTED).append('\n');
    for (long end : new TreeSet<>(arcEnds)) {
      text.append(Long.toHexString(end)).append('\n');
    }
    String path = paths.bulkLoad(job);
    try {
      zk.transaction().forOperations(
          zk.transactionOp().check().forPath(path),
          zk.transactionOp().delete().forPath(path),
          zk.transactionOp().create().withMode(CreateMode.PERSISTENT)
              .forPath(path, text.toString().getBytes(StandardCharsets.US_ASCII)),
          zk.transactionOp().create().withMode(CreateMode.EPHEMERAL)
              .forPath(path + "/" + DRIVER, new byte[0]));
    } catch (Exception e) {
      throw Znodes.failure("commit bulk load " + job + " (its staging node " + path
          + " must still be this session's)", e);
    }
  }

  /** Deletes the job's node: done, or abandoned before its commit. */
  public void remove(String job) throws IOException {
    try {
      zk.delete().deletingChildrenIfNeeded().forPath(paths.bulkLoad(job));
    } catch (KeeperException.NoNodeException e) {
      // already gone: a finished load removed by another driver, or a staging one's session
    } catch (Exception e) {
      throw Znodes.failure("remove bulk load " + job, e);
    }
  }

  /** The job's state, or empty when ZooKeeper has no node of it. */
  public Optional<State> read(String job) throws IOException {
    return Znodes.read(zk, paths.bulkLoad(job), "bulk load " + job)
        .map(read -> parse(job, read.data()));
  }

  /** Every committed load, by job. */
  public Map<String, Set<Long>> committed() throws IOException {
    Map<String, Set<Long>> loads = new TreeMap<>();
    for (Map.Entry<String, byte[]> child : Znodes.children(zk, paths.bulkLoads()).entrySet()) {
      State state = parse(child.getKey(), child.getValue());
      if (state.committed()) {
        loads.put(child.getKey(), state.arcEnds());
      }
    }
    return loads;
  }

  /**
   * Committed loads whose driver's session ended ({@code driver}, the ephemeral child the
   * commit made, is gone): they must be finished by someone else.
   */
  public Map<String, Set<Long>> withoutDriver() throws IOException {
    Map<String, Set<Long>> orphaned = new TreeMap<>();
    for (Map.Entry<String, Set<Long>> load : committed().entrySet()) {
      try {
        if (zk.checkExists().forPath(paths.bulkLoad(load.getKey()) + "/" + DRIVER) == null) {
          orphaned.put(load.getKey(), load.getValue());
        }
      } catch (Exception e) {
        throw Znodes.failure("check the driver of bulk load " + load.getKey(), e);
      }
    }
    return orphaned;
  }

  private State parse(String job, byte[] data) {
    String[] lines = new String(data, StandardCharsets.US_ASCII).split("\n");
    if (lines[0].equals(STAGING)) {
      return new State(false, Set.of());
    }
    if (!lines[0].equals(COMMITTED)) {
      throw new IllegalStateException(paths.bulkLoad(job) + " says '" + lines[0]
          + "', neither " + STAGING + " nor " + COMMITTED);
    }
    Set<Long> ends = new TreeSet<>();
    for (int i = 1; i < lines.length; i++) {
      if (!lines[i].isBlank()) {
        ends.add(Long.parseUnsignedLong(lines[i].trim(), 16));
      }
    }
    return new State(true, ends);
  }
}

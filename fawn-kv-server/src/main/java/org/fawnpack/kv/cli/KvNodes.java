package org.fawnpack.kv.cli;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.fawnpack.kv.backend.Backend;
import org.fawnpack.kv.bulk.BulkLoadFinisher;
import org.fawnpack.kv.coord.BackendRegistration;
import org.fawnpack.kv.coord.Coordinator;
import org.fawnpack.kv.coord.CopyReports;
import org.fawnpack.kv.coord.RecoveryReports;
import org.fawnpack.kv.coord.RingFollower;
import org.fawnpack.kv.coord.SliceCoordinator;
import org.fawnpack.kv.coord.SliceFenceFollower;
import org.fawnpack.kv.frontend.FrontEnd;
import org.fawnpack.kv.frontend.SliceFollower;
import org.fawnpack.kv.wire.ConnectionPool;
import org.fawnpack.kv.wire.ProtocolLimits;
import org.fawnpack.kv.zookeeper.BulkLoadStore;
import org.fawnpack.kv.zookeeper.ClusterPaths;
import org.fawnpack.kv.zookeeper.RingStore;
import org.fawnpack.kv.zookeeper.ZooKeeperSessions;

/**
 * Back-ends and front-ends wired to ZooKeeper the way {@code ./fawn kv} runs them: each with
 * its own ZooKeeper session (its liveness), following the stored ring; a back-end registered, a
 * front-end with its coordinator. Closing a node closes what it opened, in reverse.
 */
public final class KvNodes {

  /** A started node and everything to close with it. */
  public static final class Node<T> implements Closeable {
    private final T node;
    private final List<Closeable> parts;

    Node(T node, List<Closeable> parts) {
      this.node = node;
      this.parts = parts;
    }

    public T get() {
      return node;
    }

    @Override
    public void close() throws IOException {
      for (int i = parts.size() - 1; i >= 0; i--) {
        parts.get(i).close();
      }
    }
  }

  private KvNodes() {}

  /** A ZooKeeper session, connected within 30 s or an error naming the quorum. */
  public static CuratorFramework session(KvSettings settings, String command) throws IOException {
    return ZooKeeperSessions.open(settings.requireQuorum(command), settings.sessionTimeoutMs());
  }

  /**
   * A back-end listening on {@code bind}, registered at {@code advertisedPort} of its host (0:
   * the port it listens on).
   */
  public static Node<Backend> backend(KvSettings settings, String id, InetSocketAddress bind,
      int advertisedPort, Path data) throws IOException {
    org.fawnpack.kv.wire.EventLoops.configure(settings.ioThreads());
    List<Closeable> parts = new ArrayList<>();
    org.fawnpack.kv.energy.NodeEnergy energy = settings.nodeEnergy(); // bad figures: no node
    parts.add(energy);
    try {
      CuratorFramework zk = session(settings, "backend");
      parts.add(zk);
      Backend backend = Backend.open(id, bind, data, settings.datastore(), settings.secret(),
          settings.backoffs(), settings.timeouts());
      parts.add(backend);
      backend.fenceUnknown(); // no write before it has read the slice map (SliceFenceFollower)
      backend.advertisePort(advertisedPort);
      backend.placeInDomain(settings.domain());
      backend.durableAtEveryMember(settings.durability().equals("every-member"));
      backend.meterEnergyWith(energy);
      if (settings.compaction() != null) {
        backend.compactWith(settings.compaction());
      }
      ClusterPaths paths = new ClusterPaths(settings.cluster());
      backend.reportCopiesTo((epoch, arcs, bytes) ->
          CopyReports.write(zk, paths, id, epoch, arcs, bytes));
      backend.reportOrphanFilesTo(lastSequences ->
          RecoveryReports.write(zk, paths, id, lastSequences));
      BulkLoadStore bulkLoads = new BulkLoadStore(zk, paths);
      backend.followBulkLoads(new org.fawnpack.kv.backend.BulkLoadDirectory() {
        @Override
        public java.util.Map<String, java.util.Set<Long>> committed() throws IOException {
          return bulkLoads.committed();
        }

        @Override
        public boolean known(String job) throws IOException {
          return bulkLoads.read(job).isPresent();
        }
      });
      RingStore rings = new RingStore(zk, paths);
      if (settings.tailReadLeaseMs() > 0) {
        org.fawnpack.kv.ring.RingHash hash = rings.ringHash();
        backend.leaseTailReads(settings.tailReadLeaseMs(), () -> rings.publishedEpoch(hash));
      }
      parts.add(RingFollower.follow(rings, "backend " + id, backend));
      BackendRegistration registration = BackendRegistration.register(zk, paths,
          backend.member(), backend.crashedBefore());
      parts.add(registration);
      parts.add(SliceFenceFollower.follow(zk, paths, id, backend::fenceUnknown,
          backend::fenceLearned, settings.backoffs().zookeeper()));
      backend.whenCrashFilesReplaced(registration::clearCrashed);
      return new Node<>(backend, parts);
    } catch (IOException | RuntimeException e) {
      new Node<>(null, parts).close();
      throw e;
    }
  }

  public static Node<FrontEnd> frontEnd(KvSettings settings, String name, InetSocketAddress bind)
      throws IOException {
    org.fawnpack.kv.wire.EventLoops.configure(settings.ioThreads());
    List<Closeable> parts = new ArrayList<>();
    try {
      CuratorFramework zk = session(settings, "frontend");
      parts.add(zk);
      FrontEnd frontEnd = FrontEnd.open(name, bind, settings.secret(), settings.cacheEntries(),
          settings.backoffs(), settings.timeouts());
      parts.add(frontEnd);
      ClusterPaths paths = new ClusterPaths(settings.cluster());
      parts.add(RingFollower.follow(new RingStore(zk, paths), "frontend " + name, frontEnd));
      parts.add(SliceFollower.follow(frontEnd, zk, paths));
      parts.add(new SliceCoordinator(zk, paths, name)
          .retryPauses(settings.backoffs().zookeeper()).start());
      ConnectionPool finisherPool = new ConnectionPool(Duration.ofSeconds(10),
          ProtocolLimits.MAX_FRAME_BYTES, settings.secret());
      parts.add(finisherPool);
      parts.add(new BulkLoadFinisher("frontend " + name, zk, paths, finisherPool,
          settings.backoffs().bulk()).answersWithin(settings.timeouts()).start());
      // A restarted cluster's back-ends get a session timeout to register before they count
      // as down.
      parts.add(new Coordinator(zk, paths, name, settings.bootstrapBackends(),
          settings.vnodes(), settings.replicas(),
          Duration.ofMillis(settings.sessionTimeoutMs()),
          Duration.ofMillis(settings.downGraceMs()))
          .retryPauses(settings.backoffs().zookeeper()).start());
      return new Node<>(frontEnd, parts);
    } catch (IOException | RuntimeException e) {
      new Node<>(null, parts).close();
      throw e;
    }
  }
}

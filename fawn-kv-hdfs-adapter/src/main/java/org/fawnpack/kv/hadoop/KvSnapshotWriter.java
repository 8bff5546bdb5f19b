package org.fawnpack.kv.hadoop;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.zip.CRC32C;
import java.util.zip.CheckedOutputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.security.Credentials;
import org.fawnpack.kv.config.KvKeys;
import org.fawnpack.kv.copy.ArcExport;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Ring;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes an offline snapshot of a FAWN-KV cluster into a directory of a Hadoop file system
 * (HDFS): every arc's datastore files copied as they are from its tail ({@link ArcExport}),
 * {@code fawn.kv.snapshot.parallel-arcs} arcs at a time, then the {@link SnapshotManifest}.
 * Each arc is copied as of its own instant (the tail's committed writes when its copy began);
 * the store stays online. A ring change that moves an arc away from the tail asked fails that
 * arc's copy and it is asked again of the newest ring's tail, up to {@link #TRIES} times; a ring
 * whose arcs no longer match the snapshot's (a join or leave split them) fails the snapshot,
 * naming both epochs, with the files copied so far deleted.
 */
final class KvSnapshotWriter {
  private static final Logger LOG = LoggerFactory.getLogger(KvSnapshotWriter.class);
  static final int TRIES = 5;

  private final Configuration conf;
  private final Credentials credentials;

  KvSnapshotWriter(Configuration conf, Credentials credentials) {
    this.conf = conf;
    this.credentials = credentials;
  }

  /** Writes a snapshot into {@code dir}, which must not exist or be empty. */
  SnapshotManifest write(Path dir) throws IOException {
    FileSystem fs = dir.getFileSystem(conf);
    Path target = fs.makeQualified(dir);
    if (fs.exists(target) && (!fs.getFileStatus(target).isDirectory()
        || fs.listStatus(target).length > 0)) {
      throw new IOException("snapshot target " + target + " exists and is not an empty"
          + " directory (snapshots never overwrite)");
    }
    fs.mkdirs(target);
    KvClusterAccess.addSecret(conf, credentials);
    String name = UUID.randomUUID().toString();
    try (KvClusterAccess cluster = KvClusterAccess.open(conf, credentials)) {
      Ring ring = currentRing(cluster);
      List<Chain> chains = ring.chains();
      ExecutorService pool = Executors.newFixedThreadPool(Math.min(chains.size(),
          KvInputKeys.read(KvInputKeys.SNAPSHOT_PARALLEL_ARCS, conf)), r -> {
            Thread t = new Thread(r, "fawn-kv-snapshot");
            t.setDaemon(true);
            return t;
          });
      List<SnapshotManifest.Arc> arcs = new ArrayList<>();
      try {
        List<Future<SnapshotManifest.Arc>> copies = new ArrayList<>();
        for (Chain chain : chains) {
          copies.add(pool.submit(() -> copyArc(cluster, ring.epoch(), chain, fs, target,
              name)));
        }
        for (int i = 0; i < copies.size(); i++) {
          arcs.add(await(copies.get(i), chains.get(i)));
        }
      } catch (IOException | RuntimeException e) {
        fs.delete(target, true);
        throw e;
      } finally {
        pool.shutdownNow();
      }
      SnapshotManifest manifest = new SnapshotManifest(KvInputKeys.read(KvKeys.CLUSTER, conf),
          ring.epoch(), Instant.now(), arcs);
      manifest.write(fs, target);
      return manifest;
    }
  }

  private static Ring currentRing(KvClusterAccess cluster) throws IOException {
    return cluster.rings().read(cluster.rings().ringHash()).orElseThrow(() ->
        new IOException("the FAWN-KV cluster has no ring yet (no epoch in ZooKeeper)")).ring();
  }

  /** Copies one arc, asking the newest ring's tail again when the one asked fails. */
  private SnapshotManifest.Arc copyArc(KvClusterAccess cluster, long firstEpoch, Chain first,
      FileSystem fs, Path dir, String name) throws IOException {
    String file = String.format("arc-%016x.fds", first.range().endInclusive());
    Chain chain = first;
    long epoch = firstEpoch;
    IOException last = null;
    for (int attempt = 1; attempt <= TRIES; attempt++) {
      if (attempt > 1) {
        Ring now = currentRing(cluster);
        epoch = now.epoch();
        chain = now.chains().stream().filter(c -> c.range().equals(first.range())).findFirst()
            .orElseThrow(() -> new IOException("arc " + first.range() + " of epoch "
                + firstEpoch + " is not in the ring of epoch " + now.epoch() + " (a join or"
                + " leave split or merged it): take the snapshot again"));
      }
      if (chain.isEmpty()) {
        last = new IOException("arc " + chain.range() + " has no live member in epoch " + epoch);
        continue;
      }
      CRC32C crc = new CRC32C();
      try (FSDataOutputStream log = fs.create(new Path(dir, file), true);
          FSDataOutputStream checkpoint = fs.create(new Path(dir, file + ".idx"), true)) {
        ArcExport.Exported copied = ArcExport.export(cluster.pool().to(chain.tail()), epoch,
            chain.range(), name, new CheckedOutputStream(log, crc), checkpoint,
            cluster.timeouts());
        LOG.info("snapshot {}: arc {} from {}: {} bytes up to write {}", name, chain.range(),
            chain.tail().id(), copied.logBytes() + copied.checkpointBytes(),
            copied.lastSequence());
        return new SnapshotManifest.Arc(chain.range(), file, copied.logBytes(),
            copied.checkpointBytes(), copied.lastSequence(), (int) crc.getValue());
      } catch (IOException e) {
        LOG.warn("snapshot {}: copy {} of arc {} from {} failed: {}", name, attempt,
            chain.range(), chain.tail().id(), e.getMessage());
        last = e;
      }
    }
    throw new IOException("arc " + first.range() + ": no copy in " + TRIES + " tries; last: "
        + last.getMessage(), last);
  }

  private static SnapshotManifest.Arc await(Future<SnapshotManifest.Arc> copy, Chain chain)
      throws IOException {
    try {
      return copy.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while copying arc " + chain.range());
    } catch (ExecutionException e) {
      throw e.getCause() instanceof IOException io ? io
          : new IOException("copying arc " + chain.range() + " failed", e.getCause());
    }
  }
}

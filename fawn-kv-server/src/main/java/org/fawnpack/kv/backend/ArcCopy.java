package org.fawnpack.kv.backend;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import org.fawnpack.kv.copy.CopyReplies;
import org.fawnpack.kv.copy.SnapshotFetch;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.store.LogSnapshot;
import org.fawnpack.kv.wire.ArcChunk;
import org.fawnpack.kv.wire.ArcLast;
import org.fawnpack.kv.wire.ArcQuestion;
import org.fawnpack.kv.wire.ArcRelease;
import org.fawnpack.kv.wire.ArcSnapshot;
import org.fawnpack.kv.wire.Connection;
import org.fawnpack.kv.wire.ConnectionPool;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.MessageType;
import org.fawnpack.kv.wire.Timeouts;
import org.fawnpack.kv.wire.Verb;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One arc's copy from its tail, for {@link ArcReceiver}: once the chain has no write on its way
 * down (ARC_LAST to the head, answered when that is so), the tail's snapshot (ARC_SNAPSHOT),
 * its log, index checkpoint and recent-writes table fetched ({@link SnapshotFetch}), released (ARC_RELEASE),
 * moved into place checkpoint first, forced, and installed. Several run at once, each on its
 * own arc; nothing here is shared between them but the connection pool.
 */
final class ArcCopy {
  private static final Logger LOG = LoggerFactory.getLogger(ArcCopy.class);
  /** How long a copy waits for the writes on their way to reach the tail before it fails. */
  private static final long QUIET_WAIT_MS = 1_000;

  private final String id;
  private final Path dir;
  private final ConnectionPool sources;
  private final Timeouts timeouts;

  ArcCopy(String id, Path dir, ConnectionPool sources, Timeouts timeouts) {
    this.id = id;
    this.dir = dir;
    this.sources = sources;
    this.timeouts = timeouts;
  }

  /**
   * Copies one arc from its tail, installs it through {@code install}, and returns the bytes
   * received.
   */
  long copy(Ring current, Chain chain, ArcReceiver.CopyInstaller install) throws IOException {
    long arcEnd = chain.range().endInclusive();
    Path target = ArcStore.fileOf(dir, arcEnd);
    Path checkpoint = LogSnapshot.checkpointOf(target);
    // A pending arc is served by no one here: anything under its name is a failed earlier try.
    Files.deleteIfExists(target);
    Files.deleteIfExists(checkpoint);
    long headLast = awaitNoWriteOnItsWay(current, chain);
    Connection source = sources.to(chain.tail());
    ArcSnapshot taken = ArcSnapshot.decode(CopyReplies.expect(source.call(
        MessageType.ARC_SNAPSHOT, current.epoch(), new ArcQuestion(arcEnd, id).encode(),
        timeouts.of(Verb.ARC_SNAPSHOT)), "ARC_SNAPSHOT of arc " + chain.range()));
    long snapshot = taken.id();
    long lastSequence = taken.lastSequence();
    if (lastSequence < headLast) {
      source.send(MessageType.ARC_RELEASE, current.epoch(), new ArcRelease(snapshot).encode());
      throw new IOException("the snapshot of arc " + chain.range() + " holds writes up to "
          + lastSequence + ", its head up to " + headLast + ": writes still on their way");
    }
    Path logPart = target.resolveSibling(target.getFileName() + ".incoming");
    Path checkpointPart = target.resolveSibling(target.getFileName() + ".idx.incoming");
    Path recentPart = target.resolveSibling(target.getFileName() + ".recent.incoming");
    byte[] recentWrites;
    Duration pieceWait = timeouts.of(Verb.ARC_CHUNK);
    try {
      SnapshotFetch.fetch(source, current.epoch(), snapshot, ArcChunk.LOG, taken.logBytes(),
          logPart, pieceWait);
      SnapshotFetch.fetch(source, current.epoch(), snapshot, ArcChunk.CHECKPOINT,
          taken.checkpointBytes(), checkpointPart, pieceWait);
      SnapshotFetch.fetch(source, current.epoch(), snapshot, ArcChunk.RECENT_WRITES,
          taken.recentWritesBytes(), recentPart, pieceWait);
      recentWrites = Files.readAllBytes(recentPart);
      Files.delete(recentPart);
    } finally {
      source.send(MessageType.ARC_RELEASE, current.epoch(), new ArcRelease(snapshot).encode());
    }
    // The checkpoint first: a log without it would still open (by re-indexing), not the reverse.
    Files.move(checkpointPart, checkpoint, StandardCopyOption.ATOMIC_MOVE);
    Files.move(logPart, target, StandardCopyOption.ATOMIC_MOVE);
    try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
      d.force(true);
    }
    install.install(arcEnd, recentWrites);
    LOG.info("backend {}: copied arc {} from {}: {} bytes up to write {}", id, chain.range(),
        chain.tail().id(), taken.logBytes() + taken.checkpointBytes(), lastSequence);
    return taken.logBytes() + taken.checkpointBytes();
  }

  /**
   * Waits until the chain's tail holds every write its head has, and returns the head's last
   * sequence. The head takes no new write while the chain has a member copying (it is short),
   * but writes it took before may still be on their way down; a copy made before they reach
   * the tail would lack them, and a copier that becomes head or a middle member would then
   * hold less than its successor. One ARC_LAST to the head, which answers once they are
   * committed at the tail, within {@link #QUIET_WAIT_MS}; else the copy fails and is tried
   * again later.
   */
  long awaitNoWriteOnItsWay(Ring current, Chain chain) throws IOException {
    if (chain.head().equals(chain.tail())) {
      return -1; // one member: the snapshot itself is taken under the head's lock
    }
    Frame reply = sources.to(chain.head()).call(MessageType.ARC_LAST, current.epoch(),
        new ArcLast(chain.range().endInclusive(), id, QUIET_WAIT_MS).encode(),
        timeouts.longPoll(QUIET_WAIT_MS));
    return CopyReplies.expect(reply, "ARC_LAST of arc " + chain.range() + " at "
        + chain.head().id()).fields().nextLong();
  }
}

package org.fawnpack.kv.backend;

import static org.fawnpack.kv.wire.MessageType.refused;
import static org.fawnpack.kv.wire.MessageType.reply;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.fawnpack.kv.copy.ArcExport;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.store.LogSnapshot;
import org.fawnpack.kv.wire.ArcChunk;
import org.fawnpack.kv.wire.ArcLast;
import org.fawnpack.kv.wire.ArcQuestion;
import org.fawnpack.kv.wire.ArcRelease;
import org.fawnpack.kv.wire.ArcSnapshot;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.FrameServer;
import org.fawnpack.kv.wire.MalformedFrameException;
import org.fawnpack.kv.wire.MessageType;
import org.fawnpack.kv.wire.ProtocolLimits;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tail's side of a whole-file transfer: ARC_SNAPSHOT takes a {@link LogSnapshot} of the
 * arc (no bytes copied: a hard link and a checkpoint), ARC_CHUNK serves it in pieces, and
 * ARC_RELEASE deletes it. Only the arc's serving tail gives one, and only to a member its chain
 * names as copying, so that every write after the snapshot stays in the tail's sent list for
 * the copier. Snapshots of arcs that no one copies any more are deleted with each new ring.
 *
 * <p>An offline snapshot ({@code fawn kv snapshot}) asks as a copier whose id starts with
 * {@link ArcExport#OFFLINE_PREFIX}: the tail gives it one of the writes it has committed, with
 * no member named in the ring (the exporter needs no later writes). Such a snapshot outlives
 * ring changes and is deleted on ARC_RELEASE, at a restart, or after
 * {@link #OFFLINE_IDLE_NANOS} without a piece asked for (an exporter that died).
 */
final class ArcSource implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(ArcSource.class);
  /** The largest piece one ARC_CHUNK returns. */
  static final int MAX_CHUNK_BYTES = ProtocolLimits.MAX_ARC_CHUNK_BYTES;

  /** How long an offline snapshot is kept without a piece asked for. */
  static final long OFFLINE_IDLE_NANOS = java.util.concurrent.TimeUnit.MINUTES.toNanos(10);

  /** A snapshot given to a copier, with the arc's recent-writes table as of that moment. */
  private record Held(long arcEnd, String copier, LogSnapshot snapshot, byte[] recentWrites,
      AtomicLong lastUsed) {
    boolean offline() {
      return copier.startsWith(ArcExport.OFFLINE_PREFIX);
    }
  }

  private final String who;
  private final Path transferDir;
  private final Map<Long, Held> held = new ConcurrentHashMap<>();
  private final AtomicLong ids = new AtomicLong();

  ArcSource(String who, Path dataDir) throws IOException {
    this.who = who;
    this.transferDir = dataDir.resolve("transfer");
    if (Files.isDirectory(transferDir)) {
      try (Stream<Path> leftovers = Files.list(transferDir)) {
        for (Path p : (Iterable<Path>) leftovers::iterator) {
          Files.delete(p); // snapshots of an earlier run: their copiers start again
        }
      }
    }
    Files.createDirectories(transferDir);
  }

  /**
   * ARC_SNAPSHOT (arc end, copier id): answers VALUE (snapshot id, log bytes, checkpoint bytes,
   * last sequence, recent-writes table bytes).
   */
  void snapshot(Frame request, Map<Long, ArcStore> arcs, Member self,
      FrameServer.Replies replies) throws IOException {
    ArcQuestion question = ArcQuestion.decode(request);
    long arcEnd = question.arcEnd();
    String copier = question.copier();
    ArcStore arc = arcs.get(arcEnd);
    if (arc == null) {
      replies.send(refused(request, who + " holds no arc ending at " + Long.toHexString(arcEnd)));
      return;
    }
    LogSnapshot snapshot;
    byte[] recentWrites;
    long id = ids.incrementAndGet();
    dropIdleOfflineSnapshots();
    boolean offline = copier.startsWith(ArcExport.OFFLINE_PREFIX);
    arc.lock();
    try { // the copier check and the snapshot see the same chain
      if (!arc.chain().tail().equals(self) || !offline
          && arc.chain().pending().stream().noneMatch(m -> m.id().equals(copier))) {
        replies.send(refused(request, who + " gives no copy of arc " + arc.chain().range()
            + " to " + copier + " in its ring (" + arc.chain() + ")"));
        return;
      }
      snapshot = arc.store().snapshotTo(transferDir.resolve(String.format("arc-%016x-%d.fds",
          arcEnd, id)));
      recentWrites = arc.recent().encode(arc.recentCoversAll());
    } finally {
      arc.unlock();
    }
    held.put(id, new Held(arcEnd, copier, snapshot, recentWrites,
        new AtomicLong(System.nanoTime())));
    LOG.info("{}: snapshot {} of arc {} for {}: {} bytes up to write {}", who, id,
        arc.chain().range(), copier, snapshot.logBytes(), snapshot.lastSequence());
    replies.send(reply(request, MessageType.VALUE, new ArcSnapshot(id, snapshot.logBytes(),
        snapshot.checkpointBytes(), snapshot.lastSequence(), recentWrites.length).encode()));
  }

  /**
   * ARC_LAST ({@link ArcLast}): answers VALUE (the last sequence this member holds of the arc)
   * when its chain names the copier as copying the arc, or is frozen by a join (so its head
   * takes no new writes there). With a wait, the answer comes once every write this member
   * holds is committed at the chain's tail (its sent list says when; no write is between being
   * applied and being in it under the arc's lock), or REFUSED when the wait runs out: the
   * copier learns from the head alone, in one question, that no write is on its way down.
   */
  void last(Frame request, Map<Long, ArcStore> arcs, FrameServer.Replies replies)
      throws IOException {
    ArcLast question = ArcLast.decode(request);
    long arcEnd = question.arcEnd();
    String copier = question.copier();
    ArcStore arc = arcs.get(arcEnd);
    long last = -1;
    CompletableFuture<Void> committed = null;
    if (arc != null) {
      arc.lock();
      try {
        // Frozen by a join, or short with the copier pending: its head takes no new write.
        if (arc.chain().frozen()
            || arc.chain().pending().stream().anyMatch(m -> m.id().equals(copier))) {
          last = arc.store().lastSequence();
          committed = arc.sent().committedThrough(last);
        }
      } finally {
        arc.unlock();
      }
    }
    if (last < 0) {
      replies.send(refused(request, who + " has no arc ending at " + Long.toHexString(arcEnd)
          + " that " + copier + " copies in its ring"));
      return;
    }
    Frame answer = reply(request, MessageType.VALUE, new Frame.Payload().addLong(last)
        .toBytes());
    if (question.waitMs() == 0 || committed.isDone()) {
      replies.send(answer);
      return;
    }
    long held = last;
    String range = arc.chain().range().toString();
    committed.orTimeout(question.waitMs(), TimeUnit.MILLISECONDS).whenComplete(
        (done, late) -> replies.send(late == null ? answer : refused(request, who
            + ": writes up to " + held + " of arc " + range + " still on their way to its"
            + " tail after " + question.waitMs() + " ms")));
  }

  /**
   * ARC_CHUNK (snapshot id, 0 log / 1 checkpoint / 2 recent-writes table, offset, length):
   * answers VALUE (bytes).
   */
  void chunk(Frame request, FrameServer.Replies replies) throws IOException {
    ArcChunk asked = ArcChunk.decode(request);
    long id = asked.snapshot();
    long file = asked.file();
    long offset = asked.offset();
    long length = asked.length();
    Held h = held.get(id);
    if (h == null || file < ArcChunk.LOG || file > ArcChunk.RECENT_WRITES || length < 0
        || length > MAX_CHUNK_BYTES) {
      replies.send(refused(request, who + ": no snapshot " + id + ", or a bad piece (file "
          + file + ", " + length + " bytes; at most " + MAX_CHUNK_BYTES + ")"));
      return;
    }
    h.lastUsed().set(System.nanoTime());
    byte[] answer;
    try {
      LogSnapshot snapshot = h.snapshot();
      if (file == ArcChunk.LOG) {
        // A copier asks for many megabytes: the log's bytes go from the file to the socket in
        // the kernel (sendfile) where the connection allows, through no buffer here.
        LogSnapshot.LogPiece piece = snapshot.logPiece(offset, (int) length);
        replies.sendWithFile(reply(request, MessageType.VALUE, new byte[0]),
            ArcChunk.piecePrefix(piece.fromMemory().length + piece.count(),
                piece.fromMemory()), piece.file(), piece.position(), piece.count());
        return;
      } else if (file == ArcChunk.CHECKPOINT) {
        // The piece is read straight into the answer's payload (a checkpoint is small).
        answer = ArcChunk.pieceAnswer(snapshot.checkpointBytesFrom(offset, (int) length));
        snapshot.readCheckpointInto(offset, answer, ArcChunk.PIECE_OFFSET,
            answer.length - ArcChunk.PIECE_OFFSET);
      } else {
        answer = ArcChunk.encodePiece(slice(h.recentWrites(), offset, (int) length));
      }
    } catch (IllegalArgumentException e) {
      throw new MalformedFrameException("ARC_CHUNK of snapshot " + id + ": " + e.getMessage());
    }
    replies.send(reply(request, MessageType.VALUE, answer));
  }

  /** Up to {@code length} bytes of {@code bytes} from {@code offset}. */
  private static byte[] slice(byte[] bytes, long offset, int length) {
    if (offset < 0 || offset > bytes.length) {
      throw new IllegalArgumentException("offset " + offset + " of " + bytes.length + " bytes");
    }
    return java.util.Arrays.copyOfRange(bytes, (int) offset,
        (int) Math.min(bytes.length, offset + length));
  }

  /** ARC_RELEASE (snapshot id): deletes it; OK even when it is gone already. */
  void release(Frame request, FrameServer.Replies replies) throws IOException {
    Held h = held.remove(ArcRelease.decode(request).snapshot());
    if (h != null) {
      h.snapshot().delete();
    }
    replies.send(reply(request, MessageType.OK, null));
  }

  /** Deletes the snapshots of arcs with no member copying them any more (offline ones stay). */
  void keepOnlyArcsBeingCopied(Set<Long> arcEndsBeingCopied) {
    for (Map.Entry<Long, Held> e : held.entrySet()) {
      if (!e.getValue().offline() && !arcEndsBeingCopied.contains(e.getValue().arcEnd())
          && held.remove(e.getKey()) != null) {
        deleteQuietly(e.getValue());
      }
    }
  }

  /** Deletes offline snapshots no piece was asked of for {@link #OFFLINE_IDLE_NANOS}. */
  private void dropIdleOfflineSnapshots() {
    long now = System.nanoTime();
    for (Map.Entry<Long, Held> e : held.entrySet()) {
      Held h = e.getValue();
      if (h.offline() && now - h.lastUsed().get() > OFFLINE_IDLE_NANOS
          && held.remove(e.getKey()) != null) {
        LOG.warn("{}: offline snapshot {} of arc {} for {} unused for {} min: deleted", who,
            e.getKey(), Long.toHexString(h.arcEnd()), h.copier(),
            java.util.concurrent.TimeUnit.NANOSECONDS.toMinutes(OFFLINE_IDLE_NANOS));
        deleteQuietly(h);
      }
    }
  }

  private void deleteQuietly(Held h) {
    try {
      h.snapshot().delete();
    } catch (IOException e) {
      LOG.warn("{}: cannot delete a snapshot of arc {} for {}: {}", who,
          Long.toHexString(h.arcEnd()), h.copier(), e.toString());
    }
  }

  @Override
  public void close() {
    held.values().forEach(this::deleteQuietly);
    held.clear();
  }
}

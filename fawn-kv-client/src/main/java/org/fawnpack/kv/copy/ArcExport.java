package org.fawnpack.kv.copy;

import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import org.fawnpack.kv.store.KeyRange;
import org.fawnpack.kv.wire.ArcChunk;
import org.fawnpack.kv.wire.ArcQuestion;
import org.fawnpack.kv.wire.ArcRelease;
import org.fawnpack.kv.wire.ArcSnapshot;
import org.fawnpack.kv.wire.Connection;
import org.fawnpack.kv.wire.MessageType;
import org.fawnpack.kv.wire.Timeouts;
import org.fawnpack.kv.wire.Verb;

/**
 * Copies one arc's datastore files as they are (log and index checkpoint, no re-encoding) from
 * its serving tail, for an offline snapshot: the tail takes a {@link
 * org.fawnpack.kv.store.LogSnapshot} of what it has committed (a hard link, so nothing is
 * copied on its disk and compaction cannot touch it), the exporter reads it in pieces, a few in
 * flight, and releases it. The store stays online throughout.
 */
public final class ArcExport {
  /** Copier ids of offline snapshots start with this (see {@link ArcSource}). */
  public static final String OFFLINE_PREFIX = "snapshot:";

  /** What was copied of one arc. */
  public record Exported(KeyRange range, long logBytes, long checkpointBytes,
      long lastSequence) {}

  private ArcExport() {}

  /**
   * Copies arc {@code range}'s files from {@code tail} (its tail in ring {@code epoch}) into
   * {@code log} and {@code checkpoint}; {@code exporter} names the snapshot in the tail's log;
   * each answer is awaited as {@code timeouts} say for its verb.
   *
   * @throws IOException when the member refuses (not the arc's tail now, another epoch) or a
   *     piece does not come; nothing is left held on the tail
   */
  public static Exported export(Connection tail, long epoch, KeyRange range, String exporter,
      OutputStream log, OutputStream checkpoint, Timeouts timeouts) throws IOException {
    ArcSnapshot taken = ArcSnapshot.decode(CopyReplies.expect(tail.call(
        MessageType.ARC_SNAPSHOT, epoch,
        new ArcQuestion(range.endInclusive(), OFFLINE_PREFIX + exporter).encode(),
        timeouts.of(Verb.ARC_SNAPSHOT)),
        "ARC_SNAPSHOT of arc " + range));
    try {
      Duration pieceWait = timeouts.of(Verb.ARC_CHUNK);
      SnapshotFetch.fetch(tail, epoch, taken.id(), ArcChunk.LOG, taken.logBytes(), pieceWait,
          log::write);
      SnapshotFetch.fetch(tail, epoch, taken.id(), ArcChunk.CHECKPOINT, taken.checkpointBytes(),
          pieceWait, checkpoint::write);
    } finally {
      tail.send(MessageType.ARC_RELEASE, epoch, new ArcRelease(taken.id()).encode());
    }
    return new Exported(range, taken.logBytes(), taken.checkpointBytes(),
        taken.lastSequence());
  }
}

package org.fawnpack.kv.copy;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.fawnpack.kv.store.KeyRange;
import org.fawnpack.kv.wire.Connection;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.MessageType;

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
  private static final Duration DEADLINE = Duration.ofSeconds(60);

  /** What was copied of one arc. */
  public record Exported(KeyRange range, long logBytes, long checkpointBytes,
      long lastSequence) {}

  private ArcExport() {}

  /**
   * Copies arc {@code range}'s files from {@code tail} (its tail in ring {@code epoch}) into
   * {@code log} and {@code checkpoint}; {@code exporter} names the snapshot in the tail's log.
   *
   * @throws IOException when the member refuses (not the arc's tail now, another epoch) or a
   *     piece does not come; nothing is left held on the tail
   */
  public static Exported export(Connection tail, long epoch, KeyRange range, String exporter,
      OutputStream log, OutputStream checkpoint) throws IOException {
    Frame.Fields answer = CopyReplies.expect(tail.call(MessageType.ARC_SNAPSHOT, epoch,
        new Frame.Payload().addLong(range.endInclusive())
            .addBytes((OFFLINE_PREFIX + exporter).getBytes(StandardCharsets.UTF_8)).toBytes(),
        DEADLINE), "ARC_SNAPSHOT of arc " + range).fields();
    long snapshot = answer.nextLong();
    long logBytes = answer.nextLong();
    long checkpointBytes = answer.nextLong();
    long lastSequence = answer.nextLong();
    try {
      SnapshotFetch.fetch(tail, epoch, snapshot, 0, logBytes, log::write);
      SnapshotFetch.fetch(tail, epoch, snapshot, 1, checkpointBytes, checkpoint::write);
    } finally {
      tail.send(MessageType.ARC_RELEASE, epoch, new Frame.Payload().addLong(snapshot)
          .toBytes());
    }
    return new Exported(range, logBytes, checkpointBytes, lastSequence);
  }
}

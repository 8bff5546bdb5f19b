package org.fawnpack.kv.backend;

import java.io.IOException;
import org.fawnpack.kv.backend.SentList.SentWrite;
import org.fawnpack.kv.store.EngineKeys;
import org.fawnpack.kv.wire.MessageType;
import org.fawnpack.kv.wire.WriteId;

/**
 * Puts back into an arc's sent list the writes from a sequence number on, read from the arc's
 * own file: a member that restarted lost its sent list, yet its file may hold writes its
 * successor never got (nor acknowledged, so no client was told they committed). Chain members
 * append in sequence order, so the file has every number up to its last unless a compaction
 * dropped superseded records; then the successor cannot be caught up this way.
 */
final class SentListRefill {
  private SentListRefill() {}

  /**
   * Adds the writes numbered {@code from} to the arc's last to its sent list and marks a
   * resend. Returns the first number neither the list nor the file holds, or 0 when all are
   * there. The caller holds the arc's lock.
   */
  static long fromFile(ArcStore arc, long from) throws IOException {
    long last = arc.store().lastSequence();
    SentList sent = arc.sent();
    if (sent.firstMissing(from, last) == 0) {
      sent.markResendNeeded();
      return 0;
    }
    arc.store().recordsFrom(from, (sequence, engineKey, value) -> {
      if (sequence <= last) {
        sent.add(new SentWrite(value == null ? MessageType.CHAIN_DELETE : MessageType.CHAIN_PUT,
            EngineKeys.userKey(engineKey), value, sequence, WriteId.NONE));
      }
    });
    sent.markResendNeeded();
    return sent.firstMissing(from, last);
  }
}

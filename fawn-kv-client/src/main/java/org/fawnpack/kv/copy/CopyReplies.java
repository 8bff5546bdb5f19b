package org.fawnpack.kv.copy;

import java.io.IOException;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.MessageType;

/** How a copier reads a source's answer to ARC_LAST, ARC_SNAPSHOT and ARC_CHUNK. */
public final class CopyReplies {
  private CopyReplies() {}

  /** The reply if VALUE; STALE_RING is {@link SourceBehindException}, anything else fails. */
  public static Frame expect(Frame reply, String what) throws IOException {
    if (reply.type() == MessageType.STALE_RING) {
      throw new SourceBehindException(what + " answered STALE_RING: the member is on epoch "
          + reply.epoch());
    }
    if (reply.type() != MessageType.VALUE) {
      throw new IOException(what + " answered " + MessageType.name(reply.type()) + ": "
          + MessageType.messageOf(reply));
    }
    return reply;
  }
}

package org.fawnpack.kv.wire;

import java.nio.charset.StandardCharsets;

/**
 * ARC_LAST, from a copier to a member of an arc's chain: the arc (the end of its key range),
 * who copies it, and how long the member may wait before it answers. With a wait of 0 the
 * member answers at once with the last sequence it holds of the arc; with a wait it answers
 * that number once every write it holds is committed at the chain's tail (its sent list says
 * when), or refuses when the wait runs out: the copier's one question where it asked head and
 * tail again and again. Layout: the arc's end (8 bytes), the copier's id in UTF-8 as 4-byte
 * length and bytes (at most {@link ArcQuestion#MAX_COPIER_BYTES}), the wait in ms (8 bytes,
 * 0..{@link #MAX_WAIT_MS}).
 */
public record ArcLast(long arcEnd, String copier, long waitMs) {
  /** The longest a member holds an ARC_LAST before it answers. */
  public static final long MAX_WAIT_MS = 60_000;

  public ArcLast {
    if (copier.getBytes(StandardCharsets.UTF_8).length > ArcQuestion.MAX_COPIER_BYTES) {
      throw new IllegalArgumentException("a copier id of more than "
          + ArcQuestion.MAX_COPIER_BYTES + " bytes: " + copier);
    }
    if (waitMs < 0 || waitMs > MAX_WAIT_MS) {
      throw new IllegalArgumentException("an ARC_LAST wait of " + waitMs + " ms (0.."
          + MAX_WAIT_MS + ")");
    }
  }

  public byte[] encode() {
    return new Frame.Payload().addLong(arcEnd).addBytes(copier.getBytes(StandardCharsets.UTF_8))
        .addLong(waitMs).toBytes();
  }

  public static ArcLast decode(Frame frame) throws MalformedFrameException {
    if (frame.type() != MessageType.ARC_LAST) {
      throw new MalformedFrameException("an ARC_LAST of type " + MessageType.name(frame.type()));
    }
    Frame.Fields fields = frame.fields();
    long arcEnd = fields.nextLong();
    String copier = new String(fields.nextBytes(ArcQuestion.MAX_COPIER_BYTES, "the copier's id"),
        StandardCharsets.UTF_8);
    long waitMs = fields.nextLong();
    fields.end();
    if (waitMs < 0 || waitMs > MAX_WAIT_MS) {
      throw new MalformedFrameException("an ARC_LAST asks to wait " + waitMs + " ms (0.."
          + MAX_WAIT_MS + ")");
    }
    return new ArcLast(arcEnd, copier, waitMs);
  }
}

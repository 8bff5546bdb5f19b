package org.fawnpack.kv.wire;

import java.nio.charset.StandardCharsets;

/**
 * ARC_SNAPSHOT, from a copier to the tail of an arc's chain: the arc (the end of its key range)
 * and who copies it (a member's id; an offline snapshot's exporter starts with
 * {@code snapshot:}). Layout: an 8-byte number, then the copier's id in UTF-8 as 4-byte length
 * and bytes, at most {@link #MAX_COPIER_BYTES}.
 */
public record ArcQuestion(long arcEnd, String copier) {
  public static final int MAX_COPIER_BYTES = 256;

  public ArcQuestion {
    if (copier.getBytes(StandardCharsets.UTF_8).length > MAX_COPIER_BYTES) {
      throw new IllegalArgumentException("a copier id of more than " + MAX_COPIER_BYTES
          + " bytes: " + copier);
    }
  }

  public byte[] encode() {
    return new Frame.Payload().addLong(arcEnd).addBytes(copier.getBytes(StandardCharsets.UTF_8))
        .toBytes();
  }

  public static ArcQuestion decode(Frame frame) throws MalformedFrameException {
    if (frame.type() != MessageType.ARC_SNAPSHOT) {
      throw new MalformedFrameException("an arc question of type "
          + MessageType.name(frame.type()));
    }
    Frame.Fields fields = frame.fields();
    long arcEnd = fields.nextLong();
    String copier = new String(fields.nextBytes(MAX_COPIER_BYTES, "the copier's id"),
        StandardCharsets.UTF_8);
    fields.end();
    return new ArcQuestion(arcEnd, copier);
  }
}

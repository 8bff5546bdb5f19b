package org.fawnpack.kv.wire;

/**
 * A tail's VALUE answer to ARC_SNAPSHOT: the snapshot's id (for ARC_CHUNK and ARC_RELEASE), the
 * bytes of its log and of its index checkpoint, the last sequence number it holds, and the
 * bytes of the arc's recent-writes table taken with it. Layout: five 8-byte numbers.
 */
public record ArcSnapshot(long id, long logBytes, long checkpointBytes, long lastSequence,
    long recentWritesBytes) {

  public byte[] encode() {
    return new Frame.Payload().addLong(id).addLong(logBytes).addLong(checkpointBytes)
        .addLong(lastSequence).addLong(recentWritesBytes).toBytes();
  }

  /** The snapshot in a VALUE answer ({@code copy.CopyReplies.expect} checks the type first). */
  public static ArcSnapshot decode(Frame frame) throws MalformedFrameException {
    if (frame.type() != MessageType.VALUE) {
      throw new MalformedFrameException("an arc snapshot of type "
          + MessageType.name(frame.type()));
    }
    Frame.Fields fields = frame.fields();
    ArcSnapshot snapshot = new ArcSnapshot(fields.nextLong(), fields.nextLong(),
        fields.nextLong(), fields.nextLong(), fields.nextLong());
    fields.end();
    return snapshot;
  }
}

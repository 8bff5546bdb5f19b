package org.fawnpack.kv.wire;

/**
 * ARC_RELEASE, from a copier to the tail once it has a snapshot's files (or gave up): the
 * snapshot's id; the tail deletes it, and answers OK even when it is gone already. Layout: one
 * 8-byte number.
 */
public record ArcRelease(long snapshot) {

  public byte[] encode() {
    return new Frame.Payload().addLong(snapshot).toBytes();
  }

  public static ArcRelease decode(Frame frame) throws MalformedFrameException {
    if (frame.type() != MessageType.ARC_RELEASE) {
      throw new MalformedFrameException("an arc release of type "
          + MessageType.name(frame.type()));
    }
    Frame.Fields fields = frame.fields();
    long snapshot = fields.nextLong();
    fields.end();
    return new ArcRelease(snapshot);
  }
}

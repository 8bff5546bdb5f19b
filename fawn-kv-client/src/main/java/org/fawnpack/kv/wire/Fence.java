package org.fawnpack.kv.wire;

/**
 * FENCE, from a front-end about to serve keys another front-end may have served, to every
 * back-end: the slice epoch below which the back-end refuses writes from now on (see
 * {@link MessageType#FENCE}). Layout: one 8-byte number; the frame's header carries the
 * sender's ring epoch.
 */
public record Fence(long sliceEpoch) {
  /**
   * How long a back-end holds a FENCE while the writes it took under older slice epochs are
   * committed, before it answers that they are not (the front-end asks again): a long poll.
   */
  public static final long DRAIN_LIMIT_MS = 5_000;

  public byte[] encode() {
    return new Frame.Payload().addLong(sliceEpoch).toBytes();
  }

  public static Fence decode(Frame frame) throws MalformedFrameException {
    if (frame.type() != MessageType.FENCE) {
      throw new MalformedFrameException("a fence of type " + MessageType.name(frame.type()));
    }
    Frame.Fields fields = frame.fields();
    long sliceEpoch = fields.nextLong();
    fields.end();
    return new Fence(sliceEpoch);
  }
}

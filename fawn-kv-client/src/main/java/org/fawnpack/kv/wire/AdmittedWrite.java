package org.fawnpack.kv.wire;

import java.util.Objects;

/**
 * A client's {@link WriteRequest} as a front-end passes it on to the arc's head: the client's
 * fields, then the slice epoch under which the front-end admitted it, which a head fenced above
 * that epoch refuses (see {@link MessageType#FENCE}). Same frame types as the client's.
 */
public record AdmittedWrite(WriteRequest write, long sliceEpoch) {

  public AdmittedWrite {
    Objects.requireNonNull(write, "write");
  }

  public byte[] encode() {
    return write.addTo(new Frame.Payload()).addLong(sliceEpoch).toBytes();
  }

  /**
   * What {@link #encode} writes for {@code clientWrite}, made from the bytes of the client's
   * request as they came (a {@link WriteRequest}'s layout, checked by the front-end) without
   * decoding them again.
   */
  public static byte[] relay(byte[] clientWrite, long sliceEpoch) {
    return java.nio.ByteBuffer.allocate(clientWrite.length + Long.BYTES).put(clientWrite)
        .putLong(sliceEpoch).array();
  }

  /**
   * The write a PUT or DELETE frame from a front-end carries.
   *
   * @throws MalformedFrameException when the layout is wrong, or the key or value break the
   *     protocol's rules (a front-end refuses those before they get here)
   */
  public static AdmittedWrite decode(Frame frame) throws MalformedFrameException {
    Frame.Fields fields = frame.fields();
    WriteRequest write = WriteRequest.next(frame.type(), fields);
    long sliceEpoch = fields.nextLong();
    fields.end();
    String problem = write.problem();
    if (problem != null) {
      throw new MalformedFrameException(problem);
    }
    return new AdmittedWrite(write, sliceEpoch);
  }
}

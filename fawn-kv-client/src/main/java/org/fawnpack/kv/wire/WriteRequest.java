package org.fawnpack.kv.wire;

import java.util.Arrays;
import java.util.Objects;

/**
 * A PUT or DELETE as a client sends it: the key, the value (a put's only), the {@link WriteId},
 * and whether an earlier try of this write may have taken effect (it failed on the way, not by
 * refusal; a head that cannot tell then answers UNKNOWN_OUTCOME instead of applying it). A
 * front-end passes it on to the arc's head as an {@link AdmittedWrite}.
 *
 * <p>Layout, in {@link Frame.Payload}'s fields: key, [value], writer, request, earlier try
 * (1 or 0). Decoding takes key and value as long as the frame allows; {@link #problem} says
 * whether they break the protocol's rules, so a front-end can refuse by name what a back-end
 * treats as a malformed frame.
 */
public record WriteRequest(byte[] key, byte[] value, WriteId id,
    boolean earlierTryMayHaveApplied) {

  public WriteRequest {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(id, "id");
  }

  public static WriteRequest put(byte[] key, byte[] value, WriteId id) {
    return new WriteRequest(key, Objects.requireNonNull(value, "value"), id, false);
  }

  public static WriteRequest delete(byte[] key, WriteId id) {
    return new WriteRequest(key, null, id, false);
  }

  public boolean isPut() {
    return value != null;
  }

  /** {@link MessageType#PUT} or {@link MessageType#DELETE}. */
  public byte type() {
    return isPut() ? MessageType.PUT : MessageType.DELETE;
  }

  /** This write as a later try sends it. */
  public WriteRequest retried(boolean mayHaveApplied) {
    return mayHaveApplied == earlierTryMayHaveApplied ? this
        : new WriteRequest(key, value, id, mayHaveApplied);
  }

  /** Null when the key and value keep the protocol's rules, else why not. */
  public String problem() {
    return ProtocolLimits.writeProblem(key, value);
  }

  public byte[] encode() {
    return addTo(new Frame.Payload()).toBytes();
  }

  Frame.Payload addTo(Frame.Payload payload) {
    payload.addBytes(key);
    if (value != null) {
      payload.addBytes(value);
    }
    return id.addTo(payload, earlierTryMayHaveApplied);
  }

  /** The write a PUT or DELETE frame carries. */
  public static WriteRequest decode(Frame frame) throws MalformedFrameException {
    Frame.Fields fields = frame.fields();
    WriteRequest write = next(frame.type(), fields);
    fields.end();
    return write;
  }

  static WriteRequest next(byte type, Frame.Fields fields) throws MalformedFrameException {
    if (type != MessageType.PUT && type != MessageType.DELETE) {
      throw new MalformedFrameException("a write request of type " + MessageType.name(type));
    }
    byte[] key = fields.nextBytes(Integer.MAX_VALUE, "the key");
    byte[] value = type == MessageType.PUT ? fields.nextBytes(Integer.MAX_VALUE, "the value")
        : null;
    WriteId id = WriteId.next(fields);
    boolean earlierTry = fields.nextLong() != 0;
    return new WriteRequest(key, value, id, earlierTry);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof WriteRequest w && Arrays.equals(key, w.key)
        && Arrays.equals(value, w.value) && id.equals(w.id)
        && earlierTryMayHaveApplied == w.earlierTryMayHaveApplied;
  }

  @Override
  public int hashCode() {
    return Objects.hash(Arrays.hashCode(key), Arrays.hashCode(value), id,
        earlierTryMayHaveApplied);
  }

  @Override
  public String toString() {
    return (isPut() ? "PUT" : "DELETE") + "(key " + key.length + " bytes"
        + (isPut() ? ", value " + value.length + " bytes" : "") + ", " + id
        + (earlierTryMayHaveApplied ? ", an earlier try may have applied" : "") + ")";
  }
}

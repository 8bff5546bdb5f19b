package org.fawnpack.kv.wire;

import java.util.Arrays;
import java.util.Objects;

/**
 * CHAIN_PUT or CHAIN_DELETE, from a chain member to its successor: the arc (the end of its key
 * range), the key, the value (a put's only), the sequence number the head gave the write, and
 * the write's {@link WriteId}, which every member keeps so that it can answer a client's retry
 * once it becomes head.
 *
 * <p>Layout, in {@link Frame.Payload}'s fields: arc end, key, [value], sequence, writer,
 * request.
 */
public record ChainWrite(long arcEnd, byte[] key, byte[] value, long sequence, WriteId id) {

  public ChainWrite {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(id, "id");
  }

  public boolean isPut() {
    return value != null;
  }

  /** {@link MessageType#CHAIN_PUT} or {@link MessageType#CHAIN_DELETE}. */
  public byte type() {
    return isPut() ? MessageType.CHAIN_PUT : MessageType.CHAIN_DELETE;
  }

  public byte[] encode() {
    Frame.Payload payload = new Frame.Payload().addLong(arcEnd).addBytes(key);
    if (value != null) {
      payload.addBytes(value);
    }
    return id.addTo(payload.addLong(sequence)).toBytes();
  }

  /**
   * The write a CHAIN_PUT or CHAIN_DELETE frame carries.
   *
   * @throws MalformedFrameException when the type or layout is wrong, or the key or value
   *     break the protocol's rules
   */
  public static ChainWrite decode(Frame frame) throws MalformedFrameException {
    byte type = frame.type();
    if (type != MessageType.CHAIN_PUT && type != MessageType.CHAIN_DELETE) {
      throw new MalformedFrameException("a chain write of type " + MessageType.name(type));
    }
    Frame.Fields fields = frame.fields();
    long arcEnd = fields.nextLong();
    byte[] key = fields.nextBytes(ProtocolLimits.MAX_KEY_BYTES, "the key");
    byte[] value = type == MessageType.CHAIN_PUT
        ? fields.nextBytes(ProtocolLimits.MAX_VALUE_BYTES, "the value") : null;
    long sequence = fields.nextLong();
    WriteId id = WriteId.next(fields);
    fields.end();
    String problem = ProtocolLimits.writeProblem(key, value);
    if (problem != null) {
      throw new MalformedFrameException(problem);
    }
    return new ChainWrite(arcEnd, key, value, sequence, id);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ChainWrite w && arcEnd == w.arcEnd && Arrays.equals(key, w.key)
        && Arrays.equals(value, w.value) && sequence == w.sequence && id.equals(w.id);
  }

  @Override
  public int hashCode() {
    return Objects.hash(arcEnd, Arrays.hashCode(key), Arrays.hashCode(value), sequence, id);
  }

  @Override
  public String toString() {
    return (isPut() ? "CHAIN_PUT" : "CHAIN_DELETE") + "(arc " + Long.toUnsignedString(arcEnd)
        + ", key " + key.length + " bytes" + (isPut() ? ", value " + value.length + " bytes" : "")
        + ", sequence " + sequence + ", " + id + ")";
  }
}

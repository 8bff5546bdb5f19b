package org.fawnpack.kv.wire;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * CHAIN_ATTACH, from a chain member to its successor, in sequence order with the
 * {@link ChainWrite}s and in their layout (so it shares their sent list and resends): the arc
 * (the end of its key range), the bulk load's job in the key's place, the base the head absorbed
 * the load after as an 8-byte string in the value's place, the last sequence number the load
 * took in the sequence's place, and a write id (none).
 */
public record ChainAttach(long arcEnd, String job, long base, long last, WriteId id) {
  /** The longest job name the field carries. */
  public static final int MAX_JOB_BYTES = 120;

  public ChainAttach {
    Objects.requireNonNull(job, "job");
    Objects.requireNonNull(id, "id");
  }

  /** A job's bytes, where a {@link ChainWrite} has its key. */
  public static byte[] jobBytes(String job) {
    return job.getBytes(StandardCharsets.US_ASCII);
  }

  /** A base as the 8-byte string a {@link ChainWrite} has its value in. */
  public static byte[] baseBytes(long base) {
    return ByteBuffer.allocate(Long.BYTES).putLong(base).array();
  }

  public byte[] encode() {
    return id.addTo(new Frame.Payload().addLong(arcEnd).addBytes(jobBytes(job))
        .addBytes(baseBytes(base)).addLong(last)).toBytes();
  }

  /** The attach a CHAIN_ATTACH frame carries; the job's own rules are the receiver's. */
  public static ChainAttach decode(Frame frame) throws MalformedFrameException {
    if (frame.type() != MessageType.CHAIN_ATTACH) {
      throw new MalformedFrameException("a chain attach of type "
          + MessageType.name(frame.type()));
    }
    Frame.Fields fields = frame.fields();
    long arcEnd = fields.nextLong();
    String job = new String(fields.nextBytes(MAX_JOB_BYTES, "the job"),
        StandardCharsets.US_ASCII);
    byte[] base = fields.nextBytes(Long.BYTES, "the base");
    long last = fields.nextLong();
    WriteId id = WriteId.next(fields);
    fields.end();
    if (base.length != Long.BYTES) {
      throw new MalformedFrameException("a base of " + base.length + " bytes");
    }
    return new ChainAttach(arcEnd, job, ByteBuffer.wrap(base).getLong(), last, id);
  }
}

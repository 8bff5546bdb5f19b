package org.fawnpack.kv.wire;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The messages of a bulk load by attached files, from its driver to the back-ends (and, for
 * BULK_GATE and BULK_RELEASE, the front-ends). A job's name travels as a byte string of at most
 * {@link ChainAttach#MAX_JOB_BYTES} ASCII bytes (4-byte length, then the bytes); numbers are
 * 8 bytes, big-endian. Which job names are valid is the back-end's rule (it names the
 * directory a load stages in), checked where it is used.
 */
public final class BulkMessages {
  /** The largest piece of a staged file one BULK_STAGE carries. */
  public static final int MAX_PIECE_BYTES = 8 << 20;
  /** The most arcs one BULK_GATE names. */
  public static final int MAX_GATED_ARCS = 1 << 20;

  private BulkMessages() {}

  /**
   * BULK_STAGE: one piece of the file of arc {@code arcEnd}, at {@code offset}; {@code total}
   * is the file's length on its last piece, -1 before; {@code crc32c} is the whole file's.
   * Layout: job, arc end, offset, piece (length and bytes), total, CRC32C as a number.
   */
  public record Stage(String job, long arcEnd, long offset, byte[] piece, long total,
      int crc32c) {
    public byte[] encode() {
      return new Frame.Payload().addBytes(ascii(job)).addLong(arcEnd).addLong(offset)
          .addBytes(piece).addLong(total).addLong(crc32c).toBytes();
    }

    public static Stage decode(Frame frame) throws MalformedFrameException {
      Frame.Fields fields = fieldsOf(frame, MessageType.BULK_STAGE);
      Stage stage = new Stage(readJob(fields), fields.nextLong(), fields.nextLong(),
          fields.nextBytes(MAX_PIECE_BYTES, "a piece of a staged file"), fields.nextLong(),
          (int) fields.nextLong());
      fields.end();
      return stage;
    }
  }

  /** BULK_GATE: the load committed; the arcs ending at {@code arcEnds} pause. */
  public record Gate(String job, Set<Long> arcEnds) {
    public Gate {
      arcEnds = java.util.Collections.unmodifiableSet(new LinkedHashSet<>(arcEnds));
    }

    public byte[] encode() {
      Frame.Payload payload = new Frame.Payload().addBytes(ascii(job)).addLong(arcEnds.size());
      for (long arcEnd : arcEnds) {
        payload.addLong(arcEnd);
      }
      return payload.toBytes();
    }

    public static Gate decode(Frame frame) throws MalformedFrameException {
      Frame.Fields fields = fieldsOf(frame, MessageType.BULK_GATE);
      String job = readJob(fields);
      long count = fields.nextLong();
      if (count < 0 || count > MAX_GATED_ARCS) {
        throw new MalformedFrameException("a gate of " + count + " arcs");
      }
      Set<Long> ends = new LinkedHashSet<>();
      for (long i = 0; i < count; i++) {
        ends.add(fields.nextLong());
      }
      fields.end();
      return new Gate(job, ends);
    }
  }

  /** BULK_APPLY, to the head of the arc ending at {@code arcEnd}: absorb the staged file. */
  public record Apply(String job, long arcEnd) {
    public byte[] encode() {
      return new Frame.Payload().addBytes(ascii(job)).addLong(arcEnd).toBytes();
    }

    public static Apply decode(Frame frame) throws MalformedFrameException {
      Frame.Fields fields = fieldsOf(frame, MessageType.BULK_APPLY);
      Apply apply = new Apply(readJob(fields), fields.nextLong());
      fields.end();
      return apply;
    }
  }

  /** BULK_RELEASE: every arc applied the load, or it never committed; gates open. */
  public record Release(String job) {
    public byte[] encode() {
      return new Frame.Payload().addBytes(ascii(job)).toBytes();
    }

    public static Release decode(Frame frame) throws MalformedFrameException {
      Frame.Fields fields = fieldsOf(frame, MessageType.BULK_RELEASE);
      Release release = new Release(readJob(fields));
      fields.end();
      return release;
    }
  }

  private static Frame.Fields fieldsOf(Frame frame, byte type) throws MalformedFrameException {
    if (frame.type() != type) {
      throw new MalformedFrameException("a " + MessageType.name(type) + " of type "
          + MessageType.name(frame.type()));
    }
    return frame.fields();
  }

  private static String readJob(Frame.Fields fields) throws MalformedFrameException {
    return new String(fields.nextBytes(ChainAttach.MAX_JOB_BYTES, "the job"),
        StandardCharsets.US_ASCII);
  }

  private static byte[] ascii(String job) {
    return job.getBytes(StandardCharsets.US_ASCII);
  }
}

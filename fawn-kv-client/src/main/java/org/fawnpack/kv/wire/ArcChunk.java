package org.fawnpack.kv.wire;

/**
 * ARC_CHUNK, from a copier to the tail holding a snapshot: one piece of one of its files, by
 * offset and length (at most {@link ProtocolLimits#MAX_ARC_CHUNK_BYTES}). Answered VALUE with
 * the piece's bytes, shorter at a file's end. Layout: four 8-byte numbers (snapshot id, file,
 * offset, length). Only the range of {@code file} is left to the tail to check, which knows the
 * files; a length outside 0..the limit is refused when read.
 */
public record ArcChunk(long snapshot, long file, long offset, long length) {
  /** {@code file}: the snapshot's log. */
  public static final int LOG = 0;
  /** {@code file}: the index checkpoint taken with it. */
  public static final int CHECKPOINT = 1;
  /** {@code file}: the arc's recent-writes table. */
  public static final int RECENT_WRITES = 2;

  public byte[] encode() {
    return new Frame.Payload().addLong(snapshot).addLong(file).addLong(offset).addLong(length)
        .toBytes();
  }

  public static ArcChunk decode(Frame frame) throws MalformedFrameException {
    if (frame.type() != MessageType.ARC_CHUNK) {
      throw new MalformedFrameException("an arc chunk of type " + MessageType.name(frame.type()));
    }
    Frame.Fields fields = frame.fields();
    ArcChunk chunk = new ArcChunk(fields.nextLong(), fields.nextLong(), fields.nextLong(),
        fields.nextLong());
    fields.end();
    return chunk;
  }

  /** The VALUE answer carrying {@code piece}. */
  public static byte[] encodePiece(byte[] piece) {
    return new Frame.Payload().addBytes(piece).toBytes();
  }

  /** The piece in a VALUE answer. */
  public static byte[] pieceOf(Frame answer) throws MalformedFrameException {
    Frame.Fields fields = answer.fields();
    byte[] piece = fields.nextBytes(ProtocolLimits.MAX_ARC_CHUNK_BYTES, "a piece");
    fields.end();
    return piece;
  }
}

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

  /** Where a piece lies in its VALUE answer's payload: after its 4-byte length. */
  public static final int PIECE_OFFSET = Integer.BYTES;

  /**
   * A VALUE answer's payload with its length written and room for a piece of {@code length}
   * bytes at {@link #PIECE_OFFSET}, for the sender to read the piece straight into.
   */
  public static byte[] pieceAnswer(int length) {
    byte[] answer = new byte[PIECE_OFFSET + length];
    answer[0] = (byte) (length >>> 24);
    answer[1] = (byte) (length >>> 16);
    answer[2] = (byte) (length >>> 8);
    answer[3] = (byte) length;
    return answer;
  }

  /**
   * The start of a VALUE answer whose piece is {@code length} bytes, {@code first} of them
   * given here: the rest follows from elsewhere (a file, by the kernel).
   */
  public static byte[] piecePrefix(int length, byte[] first) {
    byte[] prefix = java.util.Arrays.copyOf(pieceAnswer(0), PIECE_OFFSET + first.length);
    prefix[0] = (byte) (length >>> 24);
    prefix[1] = (byte) (length >>> 16);
    prefix[2] = (byte) (length >>> 8);
    prefix[3] = (byte) length;
    System.arraycopy(first, 0, prefix, PIECE_OFFSET, first.length);
    return prefix;
  }

  /** The VALUE answer carrying {@code piece}. */
  public static byte[] encodePiece(byte[] piece) {
    byte[] answer = pieceAnswer(piece.length);
    System.arraycopy(piece, 0, answer, PIECE_OFFSET, piece.length);
    return answer;
  }

  /**
   * The length of the piece in a VALUE answer, which lies at {@link #PIECE_OFFSET} of its
   * payload (read it there, without a copy).
   */
  public static int pieceLength(Frame answer) throws MalformedFrameException {
    byte[] payload = answer.payload();
    if (payload.length < PIECE_OFFSET) {
      throw new MalformedFrameException("a piece's answer of " + payload.length
          + " bytes, without the piece's length");
    }
    int length = ((payload[0] & 0xff) << 24) | ((payload[1] & 0xff) << 16)
        | ((payload[2] & 0xff) << 8) | (payload[3] & 0xff);
    if (length < 0 || length > ProtocolLimits.MAX_ARC_CHUNK_BYTES) {
      throw new MalformedFrameException("a piece of " + Integer.toUnsignedString(length)
          + " bytes is outside 0.." + ProtocolLimits.MAX_ARC_CHUNK_BYTES);
    }
    if (payload.length != PIECE_OFFSET + length) {
      throw new MalformedFrameException("a piece of " + length + " bytes in an answer of "
          + payload.length + " bytes");
    }
    return length;
  }

  /** The piece in a VALUE answer, copied out. */
  public static byte[] pieceOf(Frame answer) throws MalformedFrameException {
    int length = pieceLength(answer);
    return java.util.Arrays.copyOfRange(answer.payload(), PIECE_OFFSET, PIECE_OFFSET + length);
  }
}

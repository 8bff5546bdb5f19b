package org.fawnpack.kv.wire;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * One message of the FAWN-KV protocol: a 4-byte length of what follows, the protocol version
 * (1 byte), the message type (1 byte), the request id that correlates a reply with its request
 * (8 bytes; requests are pipelined, replies may come in any order), the ring epoch the sender
 * routed with (8 bytes), and the type's payload. All big-endian.
 *
 * <p>The receiver checks the length against its limit before it allocates anything, so a
 * hostile or broken peer cannot make it reserve memory it does not have.
 */
public record Frame(byte type, long requestId, long epoch, byte[] payload) {
  /** 2: ARC_LAST carries a wait (a long poll, {@link ArcLast}). */
  public static final byte VERSION = 2;
  /** Version, type, request id and epoch. */
  static final int HEADER_BYTES = 1 + 1 + 8 + 8;

  public Frame {
    payload = payload == null ? new byte[0] : payload;
  }

  /**
   * Writes this frame without flushing; the caller flushes. Every caller ({@link Connection},
   * {@link FrameServer}, {@link Handshake}) flushes after each frame.
   */
  public void writeTo(DataOutputStream out) throws IOException {
    out.writeInt(HEADER_BYTES + payload.length);
    out.writeByte(VERSION);
    out.writeByte(type);
    out.writeLong(requestId);
    out.writeLong(epoch);
    out.write(payload);
  }

  /**
   * Reads one frame, or returns null at a clean end of stream (the peer closed between frames).
   *
   * @throws MalformedFrameException when the length is below the header or above
   *     {@code maxFrameBytes}, or the version is not {@link #VERSION}
   * @throws EOFException when the stream ends inside a frame
   */
  public static Frame readFrom(DataInputStream in, int maxFrameBytes) throws IOException {
    int first = in.read();
    if (first < 0) {
      return null;
    }
    int length = (first << 24) | (in.readUnsignedByte() << 16) | (in.readUnsignedByte() << 8)
        | in.readUnsignedByte();
    if (length < HEADER_BYTES || length > maxFrameBytes) {
      throw new MalformedFrameException("frame length " + Integer.toUnsignedString(length)
          + " is outside " + HEADER_BYTES + ".." + maxFrameBytes + " bytes");
    }
    byte version = in.readByte();
    if (version != VERSION) {
      throw new MalformedFrameException("protocol version " + version + ", this node speaks "
          + VERSION);
    }
    byte type = in.readByte();
    long requestId = in.readLong();
    long epoch = in.readLong();
    byte[] payload = new byte[length - HEADER_BYTES];
    in.readFully(payload);
    return new Frame(type, requestId, epoch, payload);
  }

  /** The payload as fields to read in order. */
  public Fields fields() {
    return new Fields(ByteBuffer.wrap(payload));
  }

  /** Sequential reading of a payload's fields; running past its end is a malformed frame. */
  public static final class Fields {
    private final ByteBuffer buffer;

    Fields(ByteBuffer buffer) {
      this.buffer = buffer;
    }

    public long nextLong() throws MalformedFrameException {
      need(8, "an 8-byte number");
      return buffer.getLong();
    }

    /** A field of a 4-byte length then that many bytes, at most {@code maxBytes}. */
    public byte[] nextBytes(int maxBytes, String what) throws MalformedFrameException {
      if (buffer.remaining() < 4) { // the message built only on failure: this runs per field
        need(4, "the length of " + what);
      }
      int length = buffer.getInt();
      if (length < 0 || length > maxBytes) {
        throw new MalformedFrameException(what + " of " + Integer.toUnsignedString(length)
            + " bytes is outside 0.." + maxBytes);
      }
      need(length, what);
      byte[] bytes = new byte[length];
      buffer.get(bytes);
      return bytes;
    }

    /** Fails unless every byte of the payload was read: trailing bytes mean a wrong layout. */
    public void end() throws MalformedFrameException {
      if (buffer.hasRemaining()) {
        throw new MalformedFrameException(buffer.remaining() + " bytes after the last field");
      }
    }

    private void need(int bytes, String what) throws MalformedFrameException {
      if (buffer.remaining() < bytes) {
        throw new MalformedFrameException("the frame ends inside " + what + " (" + bytes
            + " bytes needed, " + buffer.remaining() + " left)");
      }
    }
  }

  /**
   * Builds a payload field by field, in the layout {@link Fields} reads: big-endian numbers,
   * byte fields led by a 4-byte length. A plain growing array: every message is built here, and
   * the streams it replaced took a monitor per field.
   */
  public static final class Payload {
    private byte[] bytes = new byte[64];
    private int size;

    public Payload addLong(long value) {
      ensure(Long.BYTES);
      for (int shift = 56; shift >= 0; shift -= 8) {
        bytes[size++] = (byte) (value >>> shift);
      }
      return this;
    }

    public Payload addBytes(byte[] value) {
      ensure(Integer.BYTES + (long) value.length);
      int length = value.length;
      bytes[size++] = (byte) (length >>> 24);
      bytes[size++] = (byte) (length >>> 16);
      bytes[size++] = (byte) (length >>> 8);
      bytes[size++] = (byte) length;
      System.arraycopy(value, 0, bytes, size, length);
      size += length;
      return this;
    }

    public byte[] toBytes() {
      return java.util.Arrays.copyOf(bytes, size);
    }

    private void ensure(long more) {
      long needed = size + more;
      if (needed > bytes.length) {
        if (needed > Integer.MAX_VALUE - 8) {
          throw new IllegalStateException("a payload of " + needed + " bytes");
        }
        bytes = java.util.Arrays.copyOf(bytes, (int) Math.max(needed,
            Math.min(Integer.MAX_VALUE - 8L, 2L * bytes.length)));
      }
    }
  }
}

package org.fawnpack.kv.wire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;

/**
 * Cuts the byte stream of one connection into {@link Frame}s, the layout {@link Frame} documents.
 * The length is checked against the limit before anything is allocated for the frame, and the
 * version before its fields are read: either wrong is a {@link MalformedFrameException}, which
 * closes the connection. The limit starts at the handshake's and grows once it is done.
 *
 * <p>A large frame (a scan page, a copy's chunk) is read straight into its payload array as its
 * bytes arrive, once its header is here: left to the cumulation buffer, a megabyte frame
 * would be copied into ever larger buffers read by read, and once more into its array.
 */
final class FrameDecoder extends ByteToMessageDecoder {
  /** Frames with a payload this large or larger are filled in place as they arrive. */
  static final int FILL_IN_PLACE_BYTES = 64 << 10;

  private volatile int maxFrameBytes;
  /** The frame being filled in place, or null; its payload filled up to {@link #filled}. */
  private Frame filling;
  private int filled;

  FrameDecoder(int maxFrameBytes) {
    this.maxFrameBytes = maxFrameBytes;
  }

  void limit(int maxFrameBytes) {
    this.maxFrameBytes = maxFrameBytes;
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out)
      throws MalformedFrameException {
    while (true) {
      if (filling != null) {
        byte[] payload = filling.payload();
        int n = Math.min(in.readableBytes(), payload.length - filled);
        in.readBytes(payload, filled, n);
        filled += n;
        if (filled < payload.length) {
          return;
        }
        out.add(filling);
        filling = null;
        continue;
      }
      if (in.readableBytes() < Integer.BYTES) {
        return;
      }
      int start = in.readerIndex();
      int length = in.getInt(start);
      if (length < Frame.HEADER_BYTES || length > maxFrameBytes) {
        in.skipBytes(in.readableBytes());
        throw new MalformedFrameException("frame length " + Integer.toUnsignedString(length)
            + " is outside " + Frame.HEADER_BYTES + ".." + maxFrameBytes + " bytes");
      }
      boolean whole = in.readableBytes() >= Integer.BYTES + length;
      boolean fillInPlace = !whole && length - Frame.HEADER_BYTES >= FILL_IN_PLACE_BYTES
          && in.readableBytes() >= Integer.BYTES + Frame.HEADER_BYTES;
      if (!whole && !fillInPlace) {
        return; // the rest of this frame is still on its way
      }
      byte version = in.getByte(start + Integer.BYTES);
      if (version != Frame.VERSION) {
        in.skipBytes(in.readableBytes());
        throw new MalformedFrameException("protocol version " + version + ", this node speaks "
            + Frame.VERSION);
      }
      in.skipBytes(Integer.BYTES + 1);
      byte type = in.readByte();
      long requestId = in.readLong();
      long epoch = in.readLong();
      byte[] payload = new byte[length - Frame.HEADER_BYTES];
      if (fillInPlace) {
        filling = new Frame(type, requestId, epoch, payload);
        filled = 0;
        continue;
      }
      in.readBytes(payload);
      out.add(new Frame(type, requestId, epoch, payload));
    }
  }

  /** {@code frame} in its wire layout, in a buffer of {@code alloc}'s. */
  static ByteBuf encode(Frame frame, ByteBufAllocator alloc) {
    byte[] payload = frame.payload();
    ByteBuf out = alloc.ioBuffer(Integer.BYTES + Frame.HEADER_BYTES + payload.length);
    writeHead(out, frame, payload.length);
    out.writeBytes(payload);
    return out;
  }

  /**
   * The length prefix and header of {@code head} alone, for a payload of {@code payloadBytes}
   * that follows in a buffer of its own.
   */
  static ByteBuf encodeHead(Frame head, int payloadBytes, ByteBufAllocator alloc) {
    ByteBuf out = alloc.ioBuffer(Integer.BYTES + Frame.HEADER_BYTES);
    writeHead(out, head, payloadBytes);
    return out;
  }

  private static void writeHead(ByteBuf out, Frame frame, int payloadBytes) {
    out.writeInt(Frame.HEADER_BYTES + payloadBytes);
    out.writeByte(Frame.VERSION);
    out.writeByte(frame.type());
    out.writeLong(frame.requestId());
    out.writeLong(frame.epoch());
  }
}

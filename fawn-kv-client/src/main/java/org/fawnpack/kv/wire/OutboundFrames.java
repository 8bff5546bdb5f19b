package org.fawnpack.kv.wire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.DefaultFileRegion;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The frames one connection has to send, from any thread, written by its event loop in the
 * order they were added and flushed once per batch: every frame added while a write pass is
 * pending joins it, so replies produced by one read pass (or forwards by one burst of writes)
 * leave in one system call instead of one each. Frames wait until {@link #open()} (a client's
 * connection opens it when its handshake is done).
 */
final class OutboundFrames {
  private final Channel channel;
  /** Frames, or {@link Bodied} frames whose payload is a buffer. */
  private final Queue<Object> queued = new ConcurrentLinkedQueue<>();
  private final AtomicBoolean passPending = new AtomicBoolean();
  private volatile boolean open;

  OutboundFrames(Channel channel, boolean open) {
    this.channel = channel;
    this.open = open;
  }

  /** A frame whose payload is {@code body} (owned from here on: released once written). */
  private record Bodied(Frame head, ByteBuf body) {}

  /** A frame whose payload is {@code prefix}, then bytes of a file written by the kernel. */
  private record FromFile(Frame head, byte[] prefix, java.nio.file.Path file, long position,
      int count) {}

  void add(Frame frame) {
    queued.add(frame);
    if (open) {
      schedulePass();
    }
  }

  /** As {@link #add}, the payload written from {@code body} as it is (no copy into an array). */
  void addWithBody(Frame head, ByteBuf body) {
    queued.add(new Bodied(head, body));
    if (open) {
      schedulePass();
    }
  }

  /** As {@link #add}, the payload's tail sent from {@code file} by the kernel (sendfile). */
  void addWithFile(Frame head, byte[] prefix, java.nio.file.Path file, long position,
      int count) {
    queued.add(new FromFile(head, prefix, file, position, count));
    if (open) {
      schedulePass();
    }
  }

  /** The connection ended: releases the bodies of frames never handed to the socket. */
  void discardBodies() {
    for (Object o : takeQueued()) {
      if (o instanceof Bodied b) {
        b.body().release();
      }
    }
  }

  /** Lets queued frames go: the connection is ready. */
  void open() {
    open = true;
    schedulePass();
  }

  /** Takes the frames not yet handed to the socket (the connection broke before they were). */
  List<Frame> takeUnwritten() {
    List<Frame> unwritten = new ArrayList<>();
    for (Object o : takeQueued()) {
      if (o instanceof Bodied b) {
        try {
          unwritten.add(new Frame(b.head().type(), b.head().requestId(), b.head().epoch(),
              io.netty.buffer.ByteBufUtil.getBytes(b.body())));
        } finally {
          b.body().release();
        }
      } else if (o instanceof FromFile f) {
        unwritten.add(f.head()); // a reply: what a caller does with it is fail its id
      } else {
        unwritten.add((Frame) o);
      }
    }
    return unwritten;
  }

  private List<Object> takeQueued() {
    List<Object> taken = new ArrayList<>();
    Object o;
    while ((o = queued.poll()) != null) {
      taken.add(o);
    }
    return taken;
  }

  private void schedulePass() {
    // The flag is cleared before the queue is drained, so a frame added after the drain
    // began either is drained by it or sees the flag clear and schedules a pass of its own.
    if (passPending.compareAndSet(false, true)) {
      channel.eventLoop().execute(this::writePass);
    }
  }

  private void writePass() {
    passPending.set(false);
    boolean wrote = false;
    Object next;
    while ((next = queued.poll()) != null) {
      if (next instanceof Bodied b) {
        channel.write(FrameDecoder.encodeHead(b.head(), b.body().readableBytes(),
            channel.alloc()), channel.voidPromise());
        channel.write(b.body(), channel.voidPromise()); // released by the channel once written
      } else if (next instanceof FromFile f) {
        channel.write(FrameDecoder.encodeHead(f.head(), f.prefix().length + f.count(),
            channel.alloc()), channel.voidPromise());
        channel.write(Unpooled.wrappedBuffer(f.prefix()), channel.voidPromise());
        // Opened when written, closed once sent: the region owns its own file handle.
        channel.write(new DefaultFileRegion(f.file().toFile(), f.position(), f.count()),
            channel.voidPromise());
      } else {
        channel.write(FrameDecoder.encode((Frame) next, channel.alloc()), channel.voidPromise());
      }
      wrote = true;
    }
    if (wrote) {
      channel.flush();
    }
  }
}

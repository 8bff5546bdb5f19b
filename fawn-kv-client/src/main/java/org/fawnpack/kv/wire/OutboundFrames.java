package org.fawnpack.kv.wire;

import io.netty.channel.Channel;
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
  private final Queue<Frame> queued = new ConcurrentLinkedQueue<>();
  private final AtomicBoolean passPending = new AtomicBoolean();
  private volatile boolean open;

  OutboundFrames(Channel channel, boolean open) {
    this.channel = channel;
    this.open = open;
  }

  void add(Frame frame) {
    queued.add(frame);
    if (open) {
      schedulePass();
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
    Frame frame;
    while ((frame = queued.poll()) != null) {
      unwritten.add(frame);
    }
    return unwritten;
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
    Frame frame;
    while ((frame = queued.poll()) != null) {
      channel.write(FrameDecoder.encode(frame, channel.alloc()), channel.voidPromise());
      wrote = true;
    }
    if (wrote) {
      channel.flush();
    }
  }
}

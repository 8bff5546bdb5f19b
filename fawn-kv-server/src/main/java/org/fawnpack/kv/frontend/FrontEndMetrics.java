package org.fawnpack.kv.frontend;

import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.FrameServer;
import org.fawnpack.kv.wire.MessageType;

/** A front-end's counts, published as {@link FrontEndMetricsMXBean}. */
final class FrontEndMetrics implements FrontEndMetricsMXBean {
  private final String name;
  private final LongSupplier epoch;
  private final LongSupplier staleRingAnswers;
  private final LongAdder gets = new LongAdder();
  private final LongAdder puts = new LongAdder();
  private final LongAdder deletes = new LongAdder();
  private final LongAdder refused = new LongAdder();
  private final LongAdder errors = new LongAdder();
  private final LongAdder wrongSlice = new LongAdder();
  private final HotCache cache;
  private final SliceGate gate;

  FrontEndMetrics(String name, LongSupplier epoch, LongSupplier staleRingAnswers,
      HotCache cache, SliceGate gate) {
    this.name = name;
    this.epoch = epoch;
    this.staleRingAnswers = staleRingAnswers;
    this.cache = cache;
    this.gate = gate;
  }

  /** Counts {@code request} and, through the replies returned, how it is answered. */
  FrameServer.Replies counting(Frame request, FrameServer.Replies replies) {
    switch (request.type()) {
      case MessageType.GET -> gets.increment();
      case MessageType.PUT -> puts.increment();
      case MessageType.DELETE -> deletes.increment();
      default -> { } // answered REFUSED, counted below
    }
    return answer -> {
      if (answer.type() == MessageType.REFUSED) {
        refused.increment();
      } else if (answer.type() == MessageType.ERROR) {
        errors.increment();
      } else if (answer.type() == MessageType.WRONG_SLICE) {
        wrongSlice.increment();
      }
      replies.send(answer);
    };
  }

  @Override
  public String getName() {
    return name;
  }

  @Override
  public long getEpoch() {
    return epoch.getAsLong();
  }

  @Override
  public long getGets() {
    return gets.sum();
  }

  @Override
  public long getPuts() {
    return puts.sum();
  }

  @Override
  public long getDeletes() {
    return deletes.sum();
  }

  @Override
  public long getRefused() {
    return refused.sum();
  }

  @Override
  public long getErrors() {
    return errors.sum();
  }

  @Override
  public long getStaleRingAnswers() {
    return staleRingAnswers.getAsLong();
  }

  @Override
  public long getWrongSliceAnswers() {
    return wrongSlice.sum();
  }

  @Override
  public long getSliceEpoch() {
    org.fawnpack.kv.slice.SliceMap map = gate.map();
    return map == null ? -1 : map.epoch();
  }

  @Override
  public long getCacheHits() {
    return cache.hits();
  }

  @Override
  public long getCacheMisses() {
    return cache.misses();
  }

  @Override
  public long getCacheEntries() {
    return cache.size();
  }

  @Override
  public long getCacheCapacity() {
    return cache.maximum();
  }
}

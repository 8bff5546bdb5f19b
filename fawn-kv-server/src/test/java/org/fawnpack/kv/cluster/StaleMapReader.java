package org.fawnpack.kv.cluster;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.fawnpack.kv.check.HistoryRecorder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A client that still routes by the map of before a front-end's freeze: connected to it
 * before, from {@link #start} it sends a GET of one of {@code keys} to it every 20 ms on one
 * pipelined connection, without waiting (queued while it is frozen, as a slow client's would
 * be), and records every get answered with a value or NOT_FOUND (other answers change and
 * tell nothing).
 */
final class StaleMapReader implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(StaleMapReader.class);
  private final java.util.concurrent.atomic.AtomicBoolean stop =
      new java.util.concurrent.atomic.AtomicBoolean();
  private final List<java.util.concurrent.CompletableFuture<?>> answers =
      java.util.Collections.synchronizedList(new ArrayList<>());
  private final Thread sender;
  private final org.fawnpack.kv.wire.Connection connection;

  StaleMapReader(HistoryRecorder history, InetSocketAddress frontEnd, Set<Integer> keys,
      org.fawnpack.kv.auth.ClusterSecret secret) throws java.io.IOException {
    connection = org.fawnpack.kv.wire.Connection.open(frontEnd,
        java.time.Duration.ofSeconds(30), 1 << 20, secret);
    List<Integer> asked = List.copyOf(keys);
    sender = new Thread(() -> {
      for (int i = 0; !stop.get() && !asked.isEmpty(); i++) {
        byte[] key = CheckedWorkload.key(asked.get(i % asked.size()));
        long invokedAt = System.nanoTime();
        answers.add(connection.send(org.fawnpack.kv.wire.MessageType.GET, 0,
            new org.fawnpack.kv.wire.Frame.Payload().addBytes(key).toBytes())
            .thenAccept(answer -> record(history, key, invokedAt, answer)));
        try {
          Thread.sleep(20);
        } catch (InterruptedException e) {
          return;
        }
      }
    }, "stale-map-reader");
  }

  void start() {
    sender.start();
  }

  private void record(HistoryRecorder history, byte[] key, long invokedAt,
      org.fawnpack.kv.wire.Frame answer) {
    long answeredAt = System.nanoTime();
    if (answer.type() == org.fawnpack.kv.wire.MessageType.NOT_FOUND) {
      history.recordGet(key, null, invokedAt, answeredAt);
    } else if (answer.type() == org.fawnpack.kv.wire.MessageType.VALUE) {
      try {
        org.fawnpack.kv.wire.Frame.Fields fields = answer.fields();
        history.recordGet(key, fields.nextBytes(1 << 20, "the value"), invokedAt,
            answeredAt);
      } catch (org.fawnpack.kv.wire.MalformedFrameException e) {
        throw new IllegalStateException("a malformed VALUE from the front-end", e);
      }
    }
  }

  @Override
  public void close() throws Exception {
    stop.set(true);
    sender.join(10_000);
    for (java.util.concurrent.CompletableFuture<?> answer : List.copyOf(answers)) {
      try {
        answer.get(10, java.util.concurrent.TimeUnit.SECONDS);
      } catch (java.util.concurrent.ExecutionException
          | java.util.concurrent.TimeoutException e) {
        // a broken link or no answer: that get told nothing
      }
    }
    LOG.info("stale-map reader: {} gets sent to the frozen front-end", answers.size());
    connection.close();
  }
}

package org.fawnpack.demo;

import java.util.concurrent.CountDownLatch;
import sun.misc.Signal;

/**
 * Waits for Ctrl-C (SIGINT) or SIGTERM without letting the JVM start shutting down.
 *
 * <p>A JVM shutdown hook would stop the cluster while the JVM is already exiting, and Hadoop's
 * daemons then fail to remove their own shutdown hooks (IllegalStateException stack traces
 * from the DataNode). Handling the signals instead keeps the JVM running normally while the
 * cluster stops; the caller exits afterwards.
 */
final class StopSignals {

  private final CountDownLatch received = new CountDownLatch(1);
  private volatile String name;

  /** Installs the handlers; from now on INT and TERM no longer end the JVM by themselves. */
  static StopSignals install() {
    StopSignals signals = new StopSignals();
    for (String signal : new String[] {"INT", "TERM"}) {
      Signal.handle(new Signal(signal), s -> {
        signals.name = "SIG" + s.getName();
        signals.received.countDown();
      });
    }
    return signals;
  }

  /** Blocks until a signal arrives; returns its name (SIGINT or SIGTERM). */
  String await() throws InterruptedException {
    received.await();
    return name;
  }
}

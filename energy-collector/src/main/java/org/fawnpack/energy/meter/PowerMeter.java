package org.fawnpack.energy.meter;

import java.io.Closeable;
import java.io.IOException;

/**
 * One source of power readings for this node: a sensor, a supply, a PDU outlet or a model.
 *
 * <p>The sampler calls {@link #read()} once per interval from one thread, with a timeout around
 * the call, so a meter may block on I/O. A meter reports what the device says; it does not apply
 * the host's share of a shared meter (the sampler does) and need not range-check values (the
 * sampler rejects NaN, negative and implausibly large readings as gaps). A failure is an
 * {@link IOException}, preferably a {@link MeterException} whose {@code cause key} lets the
 * sampler log each kind of failure once.
 */
public interface PowerMeter extends Closeable {

  /** The configured name, as in {@code fawn.energy.meters}. */
  String name();

  /** Reads the device now. */
  MeterReading read() throws IOException;

  /** Releases sockets and sessions; the default has nothing to release. */
  @Override
  default void close() throws IOException {
  }
}

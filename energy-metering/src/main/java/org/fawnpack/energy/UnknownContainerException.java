package org.fawnpack.energy;

import java.io.IOException;

/**
 * The collector answered that it does not know the container: it never saw it start, or it is
 * a restarted NodeManager's collector that has not yet been told of the containers the
 * NodeManager recovers.
 */
public final class UnknownContainerException extends IOException {
  private static final long serialVersionUID = 1L;

  UnknownContainerException(String message) {
    super(message);
  }
}

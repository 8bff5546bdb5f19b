package org.fawnpack.kv.copy;

import java.io.IOException;

/**
 * A member a copier asked (ARC_LAST, ARC_SNAPSHOT) is on another ring epoch — usually still
 * splitting its files for the epoch the copier has: not a failure, so asked again soon.
 */
public final class SourceBehindException extends IOException {
  private static final long serialVersionUID = 1L;

  SourceBehindException(String message) {
    super(message);
  }
}

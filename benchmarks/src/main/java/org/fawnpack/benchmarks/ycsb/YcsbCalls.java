package org.fawnpack.benchmarks.ycsb;

import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import site.ycsb.Status;

/** What both bindings do alike: keys as UTF-8 bytes, a failed call logged and counted. */
final class YcsbCalls {

  private YcsbCalls() {}

  static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** Logs the failure (YCSB itself only counts it) and returns {@link Status#ERROR}. */
  static Status failed(Logger log, String operation, String key, Exception e) {
    log.warn("{} of {} failed: {}", operation, key, e.toString());
    return Status.ERROR;
  }
}

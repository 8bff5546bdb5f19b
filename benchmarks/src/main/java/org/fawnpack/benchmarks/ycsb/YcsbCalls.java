package org.fawnpack.benchmarks.ycsb;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Properties;
import java.util.Set;
import org.slf4j.Logger;
import site.ycsb.Status;

/**
 * What the bindings do alike: keys as UTF-8 bytes, a failed call logged and counted, the
 * fields of a whole record.
 */
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

  /** The field names of a whole record under YCSB's core workload settings. */
  static Set<String> fieldNames(Properties p) {
    int count = Integer.parseInt(p.getProperty("fieldcount", "10"));
    String prefix = p.getProperty("fieldnameprefix", "field");
    Set<String> names = new HashSet<>();
    for (int i = 0; i < count; i++) {
      names.add(prefix + i);
    }
    return names;
  }
}

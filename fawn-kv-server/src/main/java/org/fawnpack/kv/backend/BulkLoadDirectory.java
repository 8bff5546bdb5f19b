package org.fawnpack.kv.backend;

import java.io.IOException;
import java.util.Map;
import java.util.Set;

/**
 * Where a back-end learns which bulk loads exist (ZooKeeper's {@code bulkloads}, in a
 * cluster): the committed ones gate their arcs here, and files of a load that is gone are
 * dropped.
 */
public interface BulkLoadDirectory {
  /** Every committed load: job to the ends of the arcs it loads. */
  Map<String, Set<Long>> committed() throws IOException;

  /** Whether the job is staging or committed (false: never begun, abandoned, or done). */
  boolean known(String job) throws IOException;
}

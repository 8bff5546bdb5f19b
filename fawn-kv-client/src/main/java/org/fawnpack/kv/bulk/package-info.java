/**
 * Bulk loads driven from outside the cluster: arc files written in a task, staged beside their members and attached to their chains at once.
 *
 * <p>Internal to FAWN-KV: used by its servers, the MapReduce adapter and the benchmarks, and
 * free to change in any release. The client's public API is what is marked
 * {@code @InterfaceAudience.Public} (see {@code org.fawnpack.kv.client}).
 */
@InterfaceAudience.Private
package org.fawnpack.kv.bulk;

import org.apache.yetus.audience.InterfaceAudience;

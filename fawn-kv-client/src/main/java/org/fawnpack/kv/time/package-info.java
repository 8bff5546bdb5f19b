/**
 * Time and retries in one place: the backoff every retry loop of FAWN-KV pauses by.
 *
 * <p>Internal to FAWN-KV: used by its servers, the MapReduce adapter and the benchmarks, and
 * free to change in any release. The client's public API is what is marked
 * {@code @InterfaceAudience.Public} (see {@code org.fawnpack.kv.client}).
 */
@InterfaceAudience.Private
package org.fawnpack.kv.time;

import org.apache.yetus.audience.InterfaceAudience;

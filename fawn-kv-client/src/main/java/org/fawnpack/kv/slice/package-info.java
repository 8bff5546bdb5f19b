/**
 * The slice map: which front-end serves which part of the key space.
 *
 * <p>Internal to FAWN-KV: used by its servers, the MapReduce adapter and the benchmarks, and
 * free to change in any release. The client's public API is what is marked
 * {@code @InterfaceAudience.Public} (see {@code org.fawnpack.kv.client}).
 */
@InterfaceAudience.Private
package org.fawnpack.kv.slice;

import org.apache.yetus.audience.InterfaceAudience;

/**
 * FAWN-KV's configuration keys, read alike by clients and servers (docs/configuration.md lists them).
 *
 * <p>Internal to FAWN-KV: used by its servers, the MapReduce adapter and the benchmarks, and
 * free to change in any release. The client's public API is what is marked
 * {@code @InterfaceAudience.Public} (see {@code org.fawnpack.kv.client}).
 */
@InterfaceAudience.Private
package org.fawnpack.kv.config;

import org.apache.yetus.audience.InterfaceAudience;

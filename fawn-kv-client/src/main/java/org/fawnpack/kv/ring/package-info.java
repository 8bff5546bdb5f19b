/**
 * The ring: members, their positions, the chains of replicas per arc, and the hash that places a key.
 *
 * <p>Internal to FAWN-KV: used by its servers, the MapReduce adapter and the benchmarks, and
 * free to change in any release. The client's public API is what is marked
 * {@code @InterfaceAudience.Public} (see {@code org.fawnpack.kv.client}).
 */
@InterfaceAudience.Private
package org.fawnpack.kv.ring;

import org.apache.yetus.audience.InterfaceAudience;

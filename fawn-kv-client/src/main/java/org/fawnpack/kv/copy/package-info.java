/**
 * Reading an arc's files from a member (ARC_LAST, ARC_SNAPSHOT, ARC_CHUNK): a joining member's copy and an offline snapshot's export.
 *
 * <p>Internal to FAWN-KV: used by its servers, the MapReduce adapter and the benchmarks, and
 * free to change in any release. The client's public API is what is marked
 * {@code @InterfaceAudience.Public} (see {@code org.fawnpack.kv.client}).
 */
@InterfaceAudience.Private
package org.fawnpack.kv.copy;

import org.apache.yetus.audience.InterfaceAudience;

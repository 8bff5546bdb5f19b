/**
 * The cluster's state in ZooKeeper: the znode layout and typed stores for the ring, the slice map and bulk loads.
 *
 * <p>Internal to FAWN-KV: used by its servers, the MapReduce adapter and the benchmarks, and
 * free to change in any release. The client's public API is what is marked
 * {@code @InterfaceAudience.Public} (see {@code org.fawnpack.kv.client}).
 */
@InterfaceAudience.Private
package org.fawnpack.kv.zookeeper;

import org.apache.yetus.audience.InterfaceAudience;

package org.fawnpack.kv.backend;

import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.FrameServer;

/** Arcs a bulk load gates while it becomes visible ({@link BulkLoads}). */
interface GatedArcs {
  /** Why reads and writes of the arc wait now, or null when it serves. */
  String refusal(long arcEnd);

  /**
   * Holds {@code request} until the arc's gate opens, then handles it again from the start
   * (its ring may have moved meanwhile); refuses it with {@code refusal} if the gate stays.
   */
  void holdUntilOpen(long arcEnd, Frame request, FrameServer.Replies replies, String refusal);
}

package org.fawnpack.kv.backend;

import static org.fawnpack.kv.wire.MessageType.refused;
import static org.fawnpack.kv.wire.MessageType.reply;

import java.io.IOException;
import java.util.Map;
import java.util.function.Supplier;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.FrameServer;
import org.fawnpack.kv.wire.MessageType;
import org.fawnpack.kv.wire.Verb;

/**
 * Which part of a back-end answers each request: the epoch check every routed request passes
 * first (a request routed by another epoch is answered STALE_RING with this back-end's, applied
 * nowhere), then one handler per message type. Chain messages are checked against their arc's
 * chain epoch by {@link ChainMessages}, under the arc's lock.
 */
final class RequestDispatch implements FrameServer.Handler {
  private final String id;
  private final Supplier<Ring> ring;
  private final Supplier<Member> self;
  private final Map<Long, ArcStore> arcs;
  private final TailReads tailReads;
  private final HeadWrites headWrites;
  private final ChainMessages chainMessages;
  private final ArcScans scans;
  private final SliceFence fence;
  private final ArcSource source;
  private final BulkLoads bulkLoads;
  private final Supplier<byte[]> stats;

  RequestDispatch(String id, Supplier<Ring> ring, Supplier<Member> self,
      Map<Long, ArcStore> arcs, TailReads tailReads, HeadWrites headWrites,
      ChainMessages chainMessages, ArcScans scans, SliceFence fence, ArcSource source,
      BulkLoads bulkLoads, Supplier<byte[]> stats) {
    this.id = id;
    this.ring = ring;
    this.self = self;
    this.arcs = arcs;
    this.tailReads = tailReads;
    this.headWrites = headWrites;
    this.chainMessages = chainMessages;
    this.scans = scans;
    this.fence = fence;
    this.source = source;
    this.bulkLoads = bulkLoads;
    this.stats = stats;
  }

  @Override
  public void handle(Frame request, FrameServer.Replies replies) throws IOException {
    Ring current = ring.get();
    Member self = this.self.get();
    if (current == null) {
      replies.send(refused(request, "backend " + id + " has no ring yet"));
      return;
    }
    byte type = request.type();
    Verb verb = Verb.of(type);
    if (verb == null || !verb.isAnsweredBy(Verb.Node.BACKEND)) {
      // A well-formed frame of a type this version does not know (a newer peer), or one a
      // front-end answers: refused by name.
      replies.send(refused(request, "backend " + id + " serves no " + Verb.nameOf(type)));
      return;
    }
    // A copier's questions are checked too: a source still splitting its files for a join
    // has not taken the epoch yet, and the copier asks again in 50 ms rather than backing off.
    if (verb.ringEpochChecked() && request.epoch() != current.epoch()) {
      // Routed by another epoch: the sender's ring or this one is behind. Chain messages are
      // checked against their arc's chain, under its lock (ChainMessages).
      replies.send(new Frame(MessageType.STALE_RING, request.requestId(), current.epoch(),
          null));
      return;
    }
    Frame.Fields fields = request.fields();
    switch (type) {
      case MessageType.GET -> tailReads.get(current, request, replies);
      case MessageType.DIRECT_GET -> tailReads.directGet(current, request, replies);
      case MessageType.PUT, MessageType.DELETE -> headWrites.write(current, request, replies);
      case MessageType.CHAIN_PUT, MessageType.CHAIN_DELETE ->
          chainMessages.write(current, request, replies);
      case MessageType.CHAIN_SYNC -> chainMessages.sync(request, replies);
      case MessageType.SCAN -> scans.page(current, self, request, replies);
      case MessageType.FENCE -> fence.fence(request, replies);
      case MessageType.ARC_SNAPSHOT -> source.snapshot(request, arcs, self, replies);
      case MessageType.ARC_LAST -> source.last(request, arcs, replies);
      case MessageType.ARC_CHUNK -> source.chunk(request, replies);
      case MessageType.ARC_RELEASE -> source.release(request, replies);
      case MessageType.BULK_STAGE -> bulkLoads.stage(request, replies);
      case MessageType.BULK_GATE -> bulkLoads.gate(request, replies);
      case MessageType.BULK_APPLY -> bulkLoads.apply(request, replies);
      case MessageType.CHAIN_ATTACH -> bulkLoads.attach(request, replies);
      case MessageType.BULK_RELEASE -> bulkLoads.release(request, replies);
      case MessageType.STATS -> replies.send(reply(request, MessageType.VALUE, stats.get()));
      default -> throw new IllegalStateException("backend " + id + ": no handler for "
          + verb + ", which Verb says a back-end answers");
    }
  }

}

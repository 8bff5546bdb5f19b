package org.fawnpack.kv.backend;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.store.DatastoreConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a new epoch does to the arc files a back-end holds, chain by chain: an arc it has gets
 * its new chain (a new successor is resent the sent list), and is served, kept as a copy, or
 * closed and retired; an arc it is to serve and lacks is opened from its own file when that
 * file may serve (its first ring, a restart at another port, a recovery from its file after
 * every member went down), never after a crash. The caller ({@link Backend#useRing}) holds the
 * back-end's lock.
 */
final class ArcsOfRing {
  private static final Logger LOG = LoggerFactory.getLogger(ArcsOfRing.class);

  private final String id;
  private final Path dir;
  private final DatastoreConfig config;
  private final Map<Long, ArcStore> arcs;
  private final ChainForwarder forwarder;
  private final CrashedRun crashedRun;
  private final RetiredArcs retired;

  ArcsOfRing(String id, Path dir, DatastoreConfig config, Map<Long, ArcStore> arcs,
      ChainForwarder forwarder, CrashedRun crashedRun, RetiredArcs retired) {
    this.id = id;
    this.dir = dir;
    this.config = config;
    this.arcs = arcs;
    this.forwarder = forwarder;
    this.crashedRun = crashedRun;
    this.retired = retired;
  }

  /**
   * Applies {@code next} to every arc; {@code first}: its first ring in this run;
   * {@code arriving}: its first as a member at this address. Returns the ends of the arcs
   * some member is copying.
   */
  Set<Long> apply(Ring next, Member me, boolean first, boolean arriving) throws IOException {
    Set<Long> beingCopied = new HashSet<>();
    for (Chain chain : next.chains()) {
      long end = chain.range().endInclusive();
      if (!chain.pending().isEmpty()) {
        beingCopied.add(end);
      }
      ArcStore arc = arcs.get(end);
      if (arc != null) {
        rechain(arc, chain, next.epoch(), me);
      } else if (chain.members().contains(me)) {
        open(chain, next.epoch(), first || arriving && Files.exists(ArcStore.fileOf(dir, end)),
            next);
      }
    }
    return beingCopied;
  }

  private void rechain(ArcStore arc, Chain chain, long epoch, Member me) throws IOException {
    arc.lock();
    try {
      forwarder.chainChanged(arc, arc.chain(), chain, epoch);
      if (chain.members().indexOf(me) == 0) {
        arc.syncArrived(); // the head: no predecessor has more to give
      }
      if (RetiredArcs.servedBy(chain, id)) {
        arc.served();
      } else if (!RetiredArcs.copyingWith(chain, id, arc)) {
        // Down, displaced by a member that came back, or copying it again: this file
        // serves nothing now and may miss writes from here on.
        long end = chain.range().endInclusive();
        arcs.remove(end);
        arc.close();
        retired.add(end);
      }
    } finally {
      arc.unlock();
    }
  }

  private void open(Chain chain, long epoch, boolean ownFileServes, Ring next)
      throws IOException {
    long end = chain.range().endInclusive();
    if (crashedRun.recoversFromOwnFile(next, end)) {
      arcs.put(end, ArcStore.open(dir, chain, epoch, config));
      LOG.info("backend {}: serves arc {} from its own file in epoch {}: every member went"
          + " down and its file holds the most writes; its chain copies it", id,
          chain.range(), epoch);
    } else if (crashedRun.crashed()) {
      LOG.warn("backend {}: epoch {} has it serve arc {}, but its last run did not stop"
          + " cleanly, so its file may lack writes its chain holds; not serving it (the"
          + " coordinator marks this back-end down)", id, epoch, chain.range());
    } else if (ownFileServes) {
      ArcStore opened = ArcStore.open(dir, chain, epoch, config);
      arcs.put(end, opened);
      opened.lock();
      try {
        forwarder.opened(opened); // after a restart the successor may lack writes
      } finally {
        opened.unlock();
      }
    } else {
      // Only a copy that finished makes a member serve an arc after the first ring.
      LOG.error("backend {}: epoch {} has it serve arc {}, of which it has no copy; not"
          + " serving it", id, epoch, chain.range());
    }
  }
}

package org.fawnpack.kv.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.fawnpack.kv.coord.MemberRequests;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.ring.RingHash;
import org.fawnpack.kv.zookeeper.RingStore;

/**
 * Follows the ring after an operator's request about a member ({@code leave}, {@code remove})
 * until it is carried out, refused, or the command's wait ends (the coordinator goes on
 * without the command): it looks again whenever ZooKeeper says the ring or the request
 * changed ({@link ChangeWait}).
 */
final class RequestFollower {

  private RequestFollower() {}

  /** The ring as stored now, or empty before the first one. */
  static Optional<Ring> read(RingStore store) throws IOException {
    return store.read(store.ringHash()).map(RingStore.Versioned::ring);
  }

  /**
   * The ring, when back-end {@code id} is in it; else empty, having said so on {@code err}
   * (a request about a member the ring does not know is a usage mistake, not a wait).
   */
  static Optional<Ring> ringWithMember(RingStore store, String id, String cluster,
      PrintStream err) throws IOException {
    Optional<Ring> ring = read(store);
    if (ring.isEmpty() || ring.get().member(id) == null) {
      err.println("fawn kv: back-end " + id + " is not in the ring of cluster '" + cluster
          + "'" + ring.map(r -> " (" + r + ")").orElse(" (no ring yet)"));
      return Optional.empty();
    }
    return ring;
  }

  /**
   * Waits up to {@code timeoutSeconds} for {@code done} to hold of the ring (true), printing
   * each new epoch by {@code progress}; false, said on {@code err}, when the coordinator
   * refused the request or the wait ended.
   */
  static boolean follow(MemberRequests requests, String id, RingStore store, int timeoutSeconds,
      PrintStream err, Predicate<Ring> done, Consumer<Ring> progress) throws IOException {
    long shownEpoch = -1;
    RingHash hash = store.ringHash();
    try (ChangeWait wait = new ChangeWait(timeoutSeconds)
        .watching(changed -> store.watch(hash, ring -> changed.run()))
        .watching(changed -> requests.watch(id, changed))) {
      do {
        String answer = requests.all().getOrDefault(id, "");
        if (!answer.isEmpty()) {
          err.println("fawn kv: the coordinator " + answer);
          return false;
        }
        Ring now = read(store).orElseThrow();
        if (done.test(now)) {
          return true;
        }
        if (now.epoch() != shownEpoch) {
          shownEpoch = now.epoch();
          progress.accept(now);
        }
      } while (wait.awaitChange());
    }
    err.println("fawn kv: back-end " + id + " is not done within " + timeoutSeconds
        + " s; the coordinator goes on (./fawn kv ring shows it)");
    return false;
  }
}

package org.fawnpack.kv.cluster;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.fawnpack.kv.check.HistoryRecorder;
import org.junit.jupiter.api.Test;

/**
 * A front-end frozen (SIGSTOP) past its ZooKeeper session, as a long GC pause, a swapped-out
 * process or a stalled VM freezes one, then let go (SIGCONT), under the checked workload:
 * five back-ends and front-ends f1 and f2 as child JVMs, f0 in this JVM, clients given f1 and
 * f2, and a reader that keeps asking f1 by the map of before the freeze. While f1 is frozen
 * its slice moves to the others; when it resumes it must not serve a value from its cache, nor
 * let a write it took before the freeze land behind its successor's cache. Every key's history
 * must be linearizable, and the keys f1 served must be answered by another front-end before f1
 * resumes (clients move after a try's timeout instead of waiting out the freeze). The long
 * loop ({@code -Pfaults}, {@link FaultLoopTest}) draws the same fault among the others.
 */
class FrontEndPauseTest extends ChildClusterTest {
  @Override
  int backends() {
    return 5;
  }

  @Test
  void frozenPastItsSession_withCaches_resumes_everyKeyLinearizable_slicesServedMeanwhile()
      throws Exception {
    freezeAndResume(Map.of("fawn.kv.frontend.cache-entries", "64"), 2);
  }

  @Test
  void frozenPastItsSession_withoutCaches_resumes_everyKeyLinearizable_slicesServedMeanwhile()
      throws Exception {
    freezeAndResume(Map.of("fawn.kv.frontend.cache-entries", "0"), 1);
  }

  private void freezeAndResume(Map<String, String> frontEndSettings, int freezes)
      throws Exception {
    InetSocketAddress f1 = cluster.addFrontEnd("f1", "127.0.1.1", frontEndSettings);
    InetSocketAddress f2 = cluster.addFrontEnd("f2", "127.0.1.2", frontEndSettings);
    List<FrontEndFreeze> done = new ArrayList<>();
    CheckedWorkload workload = new CheckedWorkload(cluster);
    HistoryRecorder history = workload.run(List.of(f1, f2), () -> {
      for (int i = 0; i < freezes; i++) {
        done.add(FrontEndFreeze.of(cluster, "f1", workload.history()));
        cluster.awaitSlices(Set.of("f0", "f1", "f2")); // back, it takes its share again
        Thread.sleep(1_500); // clients keep using it, caches and all
      }
    });
    for (FrontEndFreeze freeze : done) {
      freeze.assertServedMeanwhile(history);
    }
  }
}

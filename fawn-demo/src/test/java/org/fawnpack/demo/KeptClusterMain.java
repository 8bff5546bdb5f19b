package org.fawnpack.demo;

import java.nio.file.Path;
import org.fawnpack.minicluster.EmbeddedCluster;

/**
 * What {@code ./fawn demo --keep} does after its jobs, on a small cluster: start, say so, wait
 * for a stop signal, stop. Run in a child JVM by {@link CleanStopTest}.
 */
public final class KeptClusterMain {

  private KeptClusterMain() {}

  public static void main(String[] args) throws Exception {
    EmbeddedCluster cluster = EmbeddedCluster.builder().name("kept").baseDir(Path.of(args[0]))
        .nodeManagers(1).build().start();
    StopSignals signals = StopSignals.install();
    System.out.println("ready");
    System.out.flush();
    System.out.println(signals.await() + ": stopping.");
    cluster.close();
    System.out.println("stopped");
  }
}

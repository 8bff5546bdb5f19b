package org.fawnpack.minicluster;

import java.util.function.UnaryOperator;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One embedded cluster per test class (start ~6 s, stop ~30 s, so never one per test).
 *
 * <pre>{@code
 * @RegisterExtension
 * static final MiniClusterExtension CLUSTER = new MiniClusterExtension(b -> b.nodeManagers(2));
 * ...
 * Configuration conf = CLUSTER.cluster().clientConf();
 * }</pre>
 *
 * Each class's cluster lives under {@code ${fawn.minicluster.base-dir}/<TestClass>}; surefire
 * sets the base directory per fork.
 */
public final class MiniClusterExtension implements BeforeAllCallback, AfterAllCallback {

  private final UnaryOperator<EmbeddedClusterSpec.Builder> customizer;
  private EmbeddedCluster cluster;

  public MiniClusterExtension() {
    this(UnaryOperator.identity());
  }

  public MiniClusterExtension(UnaryOperator<EmbeddedClusterSpec.Builder> customizer) {
    this.customizer = customizer;
  }

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    String name = context.getRequiredTestClass().getSimpleName();
    // Tests count task attempts; on a loaded 2-core machine Hadoop would launch speculative
    // duplicates of slow maps, so a test cluster never speculates (the demo still may).
    EmbeddedClusterSpec.Builder base = EmbeddedCluster.builder().name(name)
        .set("mapreduce.map.speculative", "false")
        .set("mapreduce.reduce.speculative", "false");
    cluster = customizer.apply(base).build().start();
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (cluster != null) {
      cluster.close();
      cluster = null;
    }
  }

  /** The running cluster of the current test class. */
  public EmbeddedCluster cluster() {
    if (cluster == null) {
      throw new IllegalStateException("the cluster starts in @BeforeAll; register this extension"
          + " as a static field with @RegisterExtension");
    }
    return cluster;
  }
}

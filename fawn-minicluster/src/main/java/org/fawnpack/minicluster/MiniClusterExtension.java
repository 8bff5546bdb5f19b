package org.fawnpack.minicluster;

import java.util.function.UnaryOperator;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One embedded cluster per test class (start ~6 s, stop ~30 s, so never one per test), or one
 * shared by consecutive classes that name the same shared cluster ({@link #shared}): started
 * by the first, stopped when a class with another cluster starts or the JUnit launcher session
 * ends ({@link SharedClusterSessionListener}: surefire with {@code forkCount > 1} runs each class
 * of a fork in a launch of its own, so the end of one launch is not the end of the fork). Two
 * embedded clusters never run at once in one JVM (Hadoop's daemons share static state there:
 * metrics beans, container tokens), so order the sharing classes together (JUnit's
 * {@code ClassOrderer}, e.g. {@code @Order} on them). Classes sharing a cluster keep to their
 * own HDFS paths and look at their own jobs only.
 *
 * <pre>{@code
 * @RegisterExtension
 * static final MiniClusterExtension CLUSTER = new MiniClusterExtension(b -> b.nodeManagers(2));
 * ...
 * Configuration conf = CLUSTER.cluster().clientConf();
 * }</pre>
 *
 * Each class's cluster lives under {@code ${fawn.minicluster.base-dir}/<TestClass>} (a shared
 * one under its name); surefire sets the base directory per fork.
 */
public final class MiniClusterExtension implements BeforeAllCallback, AfterAllCallback {

  /** The shared cluster running in this JVM, if any: at most one cluster runs at a time. */
  private static SharedCluster running;

  private final UnaryOperator<EmbeddedClusterSpec.Builder> customizer;
  /** The shared cluster's name, or null for one cluster per class. */
  private final String sharedName;
  private EmbeddedCluster cluster;

  public MiniClusterExtension() {
    this(UnaryOperator.identity());
  }

  public MiniClusterExtension(UnaryOperator<EmbeddedClusterSpec.Builder> customizer) {
    this(customizer, null);
  }

  private MiniClusterExtension(UnaryOperator<EmbeddedClusterSpec.Builder> customizer,
      String sharedName) {
    this.customizer = customizer;
    this.sharedName = sharedName;
  }

  /**
   * The cluster named {@code name}, shared by every test class of this JVM that asks for it:
   * the first one's {@code customizer} builds it, so every class must ask with the same one.
   */
  public static MiniClusterExtension shared(String name,
      UnaryOperator<EmbeddedClusterSpec.Builder> customizer) {
    return new MiniClusterExtension(customizer, name);
  }

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    synchronized (MiniClusterExtension.class) {
      if (running != null && !running.name().equals(sharedName)) {
        closeShared(); // another cluster is about to start: never two at once
      }
      if (sharedName == null) {
        cluster = start(context.getRequiredTestClass().getSimpleName());
        return;
      }
      if (running == null) {
        running = new SharedCluster(sharedName, start(sharedName));
      }
      cluster = running.cluster();
    }
  }

  /** Stops the shared cluster, if one runs: before another starts, and when the session ends. */
  static void closeShared() {
    synchronized (MiniClusterExtension.class) {
      if (running != null) {
        running.close();
        running = null;
      }
    }
  }

  private EmbeddedCluster start(String name) {
    // Tests count task attempts; on a loaded 2-core machine Hadoop would launch speculative
    // duplicates of slow maps, so a test cluster never speculates (the demo still may).
    EmbeddedClusterSpec.Builder base = EmbeddedCluster.builder().name(name)
        .set("mapreduce.map.speculative", "false")
        .set("mapreduce.reduce.speculative", "false");
    try {
      return customizer.apply(base).build().start();
    } catch (Exception e) {
      throw new IllegalStateException("the embedded cluster '" + name + "' did not start", e);
    }
  }

  /** A shared cluster: stopped before another starts, or when the launcher session ends. */
  private record SharedCluster(String name, EmbeddedCluster cluster) {
    void close() {
      cluster.close();
    }
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (sharedName == null && cluster != null) {
      cluster.close();
    }
    cluster = null;
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

package org.fawnpack.benchmarks;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.api.ContainerInitializationContext;
import org.apache.hadoop.yarn.server.api.ContainerTerminationContext;
import org.apache.hadoop.yarn.server.api.ContainerType;
import org.fawnpack.energy.CollectorClient;
import org.fawnpack.energy.EnergyProtocol;
import org.fawnpack.energy.cpu.ContainerProcessKey;
import org.fawnpack.energy.cpu.ProcessTreeCpuSource;
import org.fawnpack.energy.service.EnergyCollectorService;

/**
 * The real {@link EnergyCollectorService}, started in this JVM the way a NodeManager starts an
 * auxiliary service, with containers announced the way the NodeManager announces them: the pid
 * of each container's root process in {@code <local-dir>/nmPrivate/<appId>/<containerId>/
 * <containerId>.pid} (written by rename, as the NodeManager does), then
 * {@code initializeContainer}.
 */
final class InProcessCollector implements AutoCloseable {

  static final String USER = System.getProperty("user.name", "fawn");
  private static final Resource CONTAINER_SIZE = Resource.newInstance(256, 1);

  private final Path localDir;
  private final ApplicationId application =
      ApplicationId.newInstance(System.currentTimeMillis(), 1);
  private final EnergyCollectorService service = new EnergyCollectorService();
  private final List<ContainerId> announced = new ArrayList<>();
  private final Configuration conf;
  private int port;

  /**
   * @param settings the collector's {@code fawn.energy.*} keys
   * @param localDir the NodeManager local dir ({@code yarn.nodemanager.local-dirs})
   * @param vcores the node's vcores ({@code yarn.nodemanager.resource.cpu-vcores})
   */
  InProcessCollector(Map<String, String> settings, Path localDir, int vcores) {
    this.localDir = localDir;
    conf = new Configuration();
    settings.forEach(conf::set);
    conf.set(ProcessTreeCpuSource.LOCAL_DIRS_KEY, localDir.toString());
    conf.setInt(YarnConfiguration.NM_VCORES, vcores);
    service.init(conf);
  }

  /** Starts the service and reads its port back from its metadata, as a task does. */
  InProcessCollector start() {
    service.start();
    ByteBuffer metadata = service.getMetaData();
    byte[] bytes = new byte[metadata.remaining()];
    metadata.duplicate().get(bytes);
    port = EnergyProtocol.decodePort(Base64.getEncoder().encodeToString(bytes));
    return this;
  }

  CollectorClient client() {
    return new CollectorClient(port, 5000);
  }

  /** Writes the pid file of container {@code n} and announces it (1 vcore, 256 MB, TASK). */
  ContainerId announce(int n, long pid) throws IOException {
    ContainerId id = ContainerId.newContainerId(
        ApplicationAttemptId.newInstance(application, 1), n);
    Path dir = localDir.resolve("nmPrivate").resolve(application.toString())
        .resolve(id.toString());
    Files.createDirectories(dir);
    Path tmp = dir.resolve(id + ".pid.tmp");
    Files.writeString(tmp, Long.toString(pid) + "\n");
    Files.move(tmp, dir.resolve(id + ".pid"), StandardCopyOption.ATOMIC_MOVE);
    service.initializeContainer(
        new ContainerInitializationContext(USER, id, CONTAINER_SIZE, ContainerType.TASK));
    announced.add(id);
    return id;
  }

  /**
   * Checks, with a second {@link ProcessTreeCpuSource} built from the same configuration, that
   * every announced container's CPU time can be read: a benchmark whose pid files the collector
   * cannot find would measure a collector that skips the /proc scan.
   */
  void requireCpuReadable() {
    List<ContainerProcessKey> keys = announced.stream()
        .map(id -> new ContainerProcessKey(application.toString(), id.toString())).toList();
    Map<String, Long> cpu = ProcessTreeCpuSource.fromConfiguration(conf).cumulativeCpuNanos(keys);
    if (cpu.size() != keys.size()) {
      throw new IllegalStateException("CPU time readable for " + cpu.keySet() + " only, of "
          + keys.size() + " containers; pid files under " + localDir);
    }
  }

  /** Announces every container stopped, then stops the service. */
  @Override
  public void close() {
    try {
      for (ContainerId id : announced) {
        service.stopContainer(
            new ContainerTerminationContext(USER, id, CONTAINER_SIZE, ContainerType.TASK));
      }
    } finally {
      service.stop();
    }
  }
}

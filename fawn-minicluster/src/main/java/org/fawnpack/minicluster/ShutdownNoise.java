package org.fawnpack.minicluster;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.log4j.Level;
import org.apache.log4j.LogManager;
import org.apache.log4j.Logger;

/**
 * Hadoop's daemons log ERROR when the threads they own are interrupted by their own stop
 * ("Returning, interrupted", "ExpiredTokenRemover received InterruptedException", ...): normal
 * on a stop, alarming in a terminal. While the cluster stops, those loggers are silenced; their
 * levels are restored afterwards, so a real error at any other time still shows.
 */
final class ShutdownNoise implements AutoCloseable {

  /** The loggers that report their own stop as an error (Hadoop 3.5.0). */
  private static final List<String> LOGGERS = List.of(
      "org.apache.hadoop.security.token.delegation.AbstractDelegationTokenSecretManager",
      "org.apache.hadoop.yarn.event.EventDispatcher",
      "org.apache.hadoop.yarn.event.AsyncDispatcher",
      "org.apache.hadoop.yarn.server.resourcemanager.ResourceManager",
      "org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler",
      "org.apache.hadoop.hdfs.server.datanode.DataNode",
      "org.apache.hadoop.hdfs.server.datanode.BPServiceActor");

  private final Map<Logger, Level> previous = new LinkedHashMap<>();

  private ShutdownNoise() {}

  /** Silences the loggers until {@link #close()}. */
  static ShutdownNoise silence() {
    ShutdownNoise noise = new ShutdownNoise();
    for (String name : LOGGERS) {
      Logger logger = LogManager.getLogger(name);
      noise.previous.put(logger, logger.getLevel());
      logger.setLevel(Level.OFF);
    }
    return noise;
  }

  @Override
  public void close() {
    previous.forEach(Logger::setLevel);
  }
}

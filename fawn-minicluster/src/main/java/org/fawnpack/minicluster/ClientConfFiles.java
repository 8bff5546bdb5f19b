package org.fawnpack.minicluster;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;

/**
 * Writes the embedded cluster's client configuration as a real cluster's {@code HADOOP_CONF_DIR}
 * is laid out: each key in the site file Hadoop reads it from (a key in the wrong file is
 * overridden by the {@code *-default.xml} loaded after it), and only what a client needs: the
 * file system, the ResourceManager and JobHistory addresses, the scheduler's limits, the
 * settings jobs inherit (task and ApplicationMaster sizes, JVM options, node labels, the
 * cluster's own overrides) and the application classpath.
 *
 * <p>The classpath matters for clients in other JVMs: a job submitted from the cluster's own
 * JVM gets that JVM's classpath for its containers (Hadoop's mini-cluster rule), one submitted
 * from elsewhere gets {@code mapreduce.application.classpath}, so that is set to the cluster
 * JVM's classpath, where the ApplicationMaster's and the energy collector's classes are.
 */
final class ClientConfFiles {

  static final String CORE = "core-site.xml";
  static final String HDFS = "hdfs-site.xml";
  static final String YARN = "yarn-site.xml";
  static final String MAPRED = "mapred-site.xml";

  /** Client keys taken from the cluster's configuration wherever they were set. */
  private static final List<String> CLIENT_KEYS = List.of(
      "fs.defaultFS", "fs.permissions.umask-mode", "dfs.replication",
      "yarn.resourcemanager.address", "yarn.resourcemanager.scheduler.address",
      "yarn.resourcemanager.webapp.address", "yarn.resourcemanager.admin.address",
      "yarn.scheduler.minimum-allocation-mb", "yarn.scheduler.maximum-allocation-mb",
      "yarn.scheduler.maximum-allocation-vcores", "mapreduce.framework.name",
      "mapreduce.jobhistory.address", "mapreduce.jobhistory.webapp.address",
      "yarn.app.mapreduce.am.staging-dir");

  /** Job settings the cluster set in code (not Hadoop's defaults), which jobs inherit. */
  private static final List<String> JOB_PREFIXES = List.of("mapreduce.map.",
      "mapreduce.reduce.", "mapreduce.task.", "mapreduce.job.", "yarn.app.mapreduce.am.");

  private ClientConfFiles() {}

  /**
   * The client keys of {@code cluster} with their values, by site file name; {@code overrides}
   * (the spec's own settings) are always included.
   */
  static Map<String, Configuration> split(Configuration cluster, Set<String> overrides,
      String applicationClasspath) {
    Map<String, Configuration> files = new LinkedHashMap<>();
    for (String name : List.of(CORE, HDFS, YARN, MAPRED)) {
      files.put(name, new Configuration(false));
    }
    for (Map.Entry<String, String> entry : cluster) {
      String key = entry.getKey();
      if (CLIENT_KEYS.contains(key) || overrides.contains(key)
          || (setInCode(cluster, key) && JOB_PREFIXES.stream().anyMatch(key::startsWith))) {
        files.get(siteFileOf(key)).set(key, cluster.get(key), "embedded cluster");
      }
    }
    files.get(MAPRED).set("mapreduce.application.classpath", applicationClasspath,
        "embedded cluster JVM");
    return files;
  }

  /** Writes {@link #split} into {@code dir}, one file each. */
  static void write(Configuration cluster, Set<String> overrides, String applicationClasspath,
      Path dir) throws IOException {
    Files.createDirectories(dir);
    for (Map.Entry<String, Configuration> file
        : split(cluster, overrides, applicationClasspath).entrySet()) {
      try (OutputStream out = Files.newOutputStream(dir.resolve(file.getKey()))) {
        file.getValue().writeXml(out);
      }
    }
  }

  /** The site file Hadoop reads {@code key} from; keys of no Hadoop daemon go to core-site. */
  static String siteFileOf(String key) {
    if (key.startsWith("dfs.")) {
      return HDFS;
    }
    if (key.startsWith("mapreduce.") || key.startsWith("mapred.")
        || key.startsWith("yarn.app.mapreduce.")) {
      return MAPRED;
    }
    if (key.startsWith("yarn.")) {
      return YARN;
    }
    return CORE;
  }

  private static boolean setInCode(Configuration conf, String key) {
    String[] sources = conf.getPropertySources(key);
    return sources != null && sources.length > 0 && !sources[0].endsWith("-default.xml");
  }
}

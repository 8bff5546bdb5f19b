package org.fawnpack.configs;

import java.util.EnumSet;
import java.util.Set;

/**
 * The tuning numbers of a profile, each with its name in the profile file and the Hadoop key it
 * becomes. Masters carry only the NodeManager size and the ApplicationMaster's settings.
 */
public enum Setting {
  NODE_MEMORY_MB("node-memory-mb", "yarn-site.xml", "yarn.nodemanager.resource.memory-mb"),
  VCORES("vcores", "yarn-site.xml", "yarn.nodemanager.resource.cpu-vcores"),
  CONTAINER_MB("container-mb", null, null),
  MAP_MEMORY_MB("map-memory-mb", "mapred-site.xml", "mapreduce.map.memory.mb"),
  MAP_HEAP_MB("map-heap-mb", "mapred-site.xml", "mapreduce.map.java.opts"),
  IO_SORT_MB("io-sort-mb", "mapred-site.xml", "mapreduce.task.io.sort.mb"),
  REDUCE_MEMORY_MB("reduce-memory-mb", "mapred-site.xml", "mapreduce.reduce.memory.mb"),
  REDUCE_HEAP_MB("reduce-heap-mb", "mapred-site.xml", "mapreduce.reduce.java.opts"),
  AM_MEMORY_MB("am-memory-mb", "mapred-site.xml", "yarn.app.mapreduce.am.resource.mb"),
  AM_HEAP_MB("am-heap-mb", "mapred-site.xml", "yarn.app.mapreduce.am.command-opts"),
  BLOCK_SIZE_MB("block-size-mb", "hdfs-site.xml", "dfs.blocksize"),
  REPLICATION("replication", "hdfs-site.xml", "dfs.replication");

  private final String yamlName;
  private final String file;
  private final String hadoopKey;

  Setting(String yamlName, String file, String hadoopKey) {
    this.yamlName = yamlName;
    this.file = file;
    this.hadoopKey = hadoopKey;
  }

  /** The name in a profile's {@code tuning:} section. */
  public String yamlName() {
    return yamlName;
  }

  /** The Hadoop file the setting lands in, or null for a number only other settings use. */
  public String file() {
    return file;
  }

  /** The Hadoop key, or null (container-mb is the unit maps and reduces are sized from). */
  public String hadoopKey() {
    return hadoopKey;
  }

  /** Whether the Hadoop value is a JVM option string carrying the number as {@code -Xmx<n>m}. */
  public boolean isHeap() {
    return this == MAP_HEAP_MB || this == REDUCE_HEAP_MB || this == AM_HEAP_MB;
  }

  /** The settings a profile of this role must have. */
  public static Set<Setting> requiredFor(Role role) {
    return role == Role.MASTER
        ? EnumSet.of(NODE_MEMORY_MB, VCORES, AM_MEMORY_MB, AM_HEAP_MB)
        : EnumSet.allOf(Setting.class);
  }

  public static Setting byYamlName(String name) {
    for (Setting s : values()) {
      if (s.yamlName.equals(name)) {
        return s;
      }
    }
    return null;
  }

  /** The value as Hadoop wants it in the file: heaps as JVM options, block size in bytes. */
  public String hadoopValue(int value) {
    if (isHeap()) {
      return JvmMemory.options(value);
    }
    if (this == BLOCK_SIZE_MB) {
      return Long.toString(value * 1024L * 1024L);
    }
    return Integer.toString(value);
  }
}

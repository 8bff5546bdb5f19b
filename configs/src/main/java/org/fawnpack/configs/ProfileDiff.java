package org.fawnpack.configs;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.yarn.conf.YarnConfiguration;

/** What a profile changes against Hadoop's defaults, with the reason for each change. */
public final class ProfileDiff {
  /** One changed key. */
  public record Change(String file, String key, String hadoopDefault, String value,
      String reason) {}

  private ProfileDiff() {}

  public static List<Change> of(Profile profile) {
    List<Change> changes = new ArrayList<>();
    for (Map.Entry<Setting, Sourced> e : profile.tuning().entrySet()) {
      Setting s = e.getKey();
      if (s.hadoopKey() == null) {
        continue;
      }
      String value = s.hadoopValue(e.getValue().intValue());
      String def = hadoopDefault(s);
      if (!value.equals(def)) {
        changes.add(new Change(s.file(), s.hadoopKey(), def, value, e.getValue().source()));
      }
    }
    return changes;
  }

  public static String text(Profile profile) {
    List<Change> changes = of(profile);
    StringBuilder t = new StringBuilder();
    t.append(String.format(Locale.ROOT, "Profile %s (%s): %d settings differ from Hadoop's"
        + " defaults%n", profile.name(), profile.role().yamlName(), changes.size()));
    int keyWidth = changes.stream().mapToInt(c -> c.key().length()).max().orElse(3);
    String row = "%-16s %-" + keyWidth + "s  %-24s %-12s %s%n";
    t.append(String.format(Locale.ROOT, row, "file", "key", "Hadoop default", "profile", "why"));
    for (Change c : changes) {
      t.append(String.format(Locale.ROOT, row, c.file(), c.key(), c.hadoopDefault(), c.value(),
          c.reason()));
    }
    if (profile.has(Setting.CONTAINER_MB)) {
      t.append(String.format(Locale.ROOT, "%ncontainer-mb %d (no Hadoop key: the unit maps and"
          + " reduces are sized from): %s%n", profile.get(Setting.CONTAINER_MB),
          profile.sourced(Setting.CONTAINER_MB).source()));
    }
    if (profile.role() == Role.SLAVE) {
      t.append("Cluster-wide keys (scheduler allocation, block size, replication, task sizes)"
          + " are agreed across all hosts when rendering: see fawn profile render.\n");
    }
    return t.toString();
  }

  /** Hadoop's default as its *-default.xml states it, or what Hadoop does when it is unset. */
  static String hadoopDefault(Setting s) {
    return switch (s) {
      case BLOCK_SIZE_MB -> Long.toString(HdfsClientConfigKeys.DFS_BLOCK_SIZE_DEFAULT);
      case REPLICATION -> Integer.toString(HdfsClientConfigKeys.DFS_REPLICATION_DEFAULT);
      case MAP_HEAP_MB, REDUCE_HEAP_MB -> fromFile(s, "(0.8 x container)");
      // -1 in the *-default.xml files: Hadoop then uses these built-in values.
      case NODE_MEMORY_MB -> fromFile(s, Integer.toString(YarnConfiguration.DEFAULT_NM_PMEM_MB));
      case VCORES -> fromFile(s, Integer.toString(YarnConfiguration.DEFAULT_NM_VCORES));
      case MAP_MEMORY_MB -> fromFile(s, Integer.toString(MRJobConfig.DEFAULT_MAP_MEMORY_MB));
      case REDUCE_MEMORY_MB -> fromFile(s, Integer.toString(MRJobConfig.DEFAULT_REDUCE_MEMORY_MB));
      default -> fromFile(s, "(unset)");
    };
  }

  private static String fromFile(Setting s, String whenUnset) {
    String file = s.file().replace("-site.xml", "-default.xml");
    Configuration conf = new Configuration(false);
    if (ProfileDiff.class.getClassLoader().getResource(file) != null) {
      conf.addResource(file);
    }
    String value = conf.getTrimmed(s.hadoopKey());
    if (value == null || value.isEmpty() || value.equals("-1")) {
      return whenUnset;
    }
    return value;
  }
}

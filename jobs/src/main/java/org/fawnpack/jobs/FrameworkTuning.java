package org.fawnpack.jobs;

import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.JobConf;

/**
 * Settings that cut MapReduce's fixed cost per job on small clusters, applied by the optimised
 * jobs. A value the user set (in a site file or with -D) always wins: only keys still at
 * Hadoop's shipped default are changed.
 */
public final class FrameworkTuning {

  /**
   * key → value, and why. The client polls for completion every 5 s by default, so a job that
   * ends just after a poll is reported up to 5 s late; the AM asks the RM for containers once a
   * second by default, which delays each allocation round on a cluster that answers in ms.
   */
  static final Map<String, String> SETTINGS = Map.of(
      "mapreduce.client.completion.pollinterval", "250",
      "yarn.app.mapreduce.am.scheduler.heartbeat.interval-ms", "200",
      // With one map per vcore every slot is busy; a speculative copy of a map that is merely
      // sharing a core does the same work twice, which costs joules and buys no time.
      "mapreduce.map.speculative", "false",
      "mapreduce.reduce.speculative", "false");

  private FrameworkTuning() {}

  public static void apply(Configuration conf) {
    // mapred-default.xml, mapred-site.xml and the deprecated MapReduce key names are registered
    // by JobConf's static initialiser. Until it has run (nothing has loaded JobConf yet when a
    // job is being built), a value set in mapred-site.xml looks unset here, would be overwritten,
    // and the overwrite would then beat the site file once it is loaded.
    new JobConf(false);
    SETTINGS.forEach((key, value) -> {
      if (!isUserSet(conf, key)) {
        conf.set(key, value, "fawn-jobs framework tuning");
      }
    });
  }

  /** True when the key's value came from anywhere but Hadoop's *-default.xml files. */
  public static boolean isUserSet(Configuration conf, String key) {
    if (conf.get(key) == null) {
      return false;
    }
    String[] sources = conf.getPropertySources(key);
    if (sources == null) {
      return true;
    }
    for (String source : sources) {
      if (!source.endsWith("-default.xml")) {
        return true;
      }
    }
    return false;
  }
}

package org.fawnpack.jobs.kv;

import java.io.IOException;
import java.util.Arrays;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.fawnpack.conf.ConfigKey;
import org.fawnpack.jobs.JobTool;
import org.fawnpack.kv.config.KvKeys;

/**
 * What the FAWN-KV jobs share: a cluster named by {@code fawn.kv.zookeeper.quorum}, an optional
 * leading {@code --option value} that sets one of the job's keys, and an output directory.
 */
abstract class KvJobTool extends JobTool {

  /**
   * A new job after the arguments' leading {@code option} (if given, its value goes to
   * {@code key}, which must accept it) was taken off; the rest is in {@code rest[0]}.
   */
  protected final Job jobFor(String[] args, String option, ConfigKey<String> key,
      String[][] rest, String detail) throws IOException, UsageException {
    return jobFor(args, option, key, rest, detail, true);
  }

  /** Same; a job that reads a snapshot ({@code needsCluster} false) names no cluster. */
  protected final Job jobFor(String[] args, String option, ConfigKey<String> key,
      String[][] rest, String detail, boolean needsCluster) throws IOException, UsageException {
    String value = null;
    int at = 0;
    if (args.length > 0 && args[0].equals(option)) {
      if (args.length < 2 || args[1].isEmpty()) {
        throw new UsageException(option + " wants a non-empty string");
      }
      value = args[1];
      at = 2;
    }
    rest[0] = Arrays.copyOfRange(args, at, args.length);
    if (needsCluster) {
      requireCluster();
    }
    Job job = newJob(detail);
    if (value != null) {
      job.getConfiguration().set(key.name(), value);
    }
    key.read(job.getConfiguration()::get); // a bad value fails here, by name
    return job;
  }

  /**
   * The snapshot directory after a leading {@code --snapshot} (null without one); the rest of
   * the arguments go to {@code rest[0]}.
   */
  protected static String snapshotOption(String[] args, String[][] rest) throws UsageException {
    if (args.length == 0 || !args[0].equals(SNAPSHOT)) {
      rest[0] = args;
      return null;
    }
    if (args.length < 2 || args[1].isEmpty() || args[1].startsWith("--")) {
      throw new UsageException(SNAPSHOT + " wants the directory of a snapshot (fawn kv"
          + " snapshot --to DIR made it)");
    }
    rest[0] = Arrays.copyOfRange(args, 2, args.length);
    return args[1];
  }

  protected static final String SNAPSHOT = "--snapshot";

  /** Refuses to go on when no cluster is named. */
  protected final void requireCluster() throws UsageException {
    if (getConf().get(KvKeys.ZOOKEEPER_QUORUM.name()) == null) {
      throw new UsageException("no FAWN-KV cluster named: set -D"
          + KvKeys.ZOOKEEPER_QUORUM.name() + "=HOST:PORT[,...]");
    }
  }

  /** The one output directory {@code rest} must be; it must not exist yet. */
  protected final Path newOutput(String[] rest) throws IOException, UsageException {
    if (rest.length != 1) {
      throw new UsageException(rest.length == 0 ? "missing output path"
          : "expected one output path after the options, got " + rest.length + " arguments");
    }
    Path output = new Path(rest[0]);
    requireNewOutput(output);
    return output;
  }
}

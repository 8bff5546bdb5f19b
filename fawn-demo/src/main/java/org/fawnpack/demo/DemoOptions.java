package org.fawnpack.demo;

import static org.fawnpack.demo.CommandLineArgs.positive;
import static org.fawnpack.demo.CommandLineArgs.value;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.fawnpack.jobs.md5.Md5Config;

/**
 * The command line of {@code ./fawn demo}. {@code all} adds every other job of the jar (teragen,
 * terasort, teravalidate, pi, md5gen, md5search) after the four count jobs; {@code teraRows} and
 * {@code md5Bits} size those and are only accepted with {@code --all}.
 */
record DemoOptions(int textFiles, int textFileKb, int logFiles, int logFileKb, boolean keep,
    Path outDir, String profile, boolean all, int teraRows, int md5Bits, boolean kvJobs,
    int slaves, Compare compare, List<String> jobOptions) {

  /**
   * {@code --compare}: the count jobs again on a second cluster of {@code slaves} nodes of
   * {@code profile}; null when not asked for.
   */
  record Compare(String profile, int slaves) {}

  /** The second cluster of {@code --compare} unless told otherwise: seed 003's Dell cluster. */
  static final String DEFAULT_AGAINST = "dell-r620";
  /** Seed 003 ran its Dell cluster with two slaves (§5.2). */
  static final int DEFAULT_AGAINST_SLAVES = 2;

  /** The slave profile the demo sizes its NodeManagers and jobs from unless told otherwise. */
  static final String DEFAULT_PROFILE = "edison";
  /** 10^6 rows = 100 MB: enough for terasort to sample, shuffle and merge, a minute or two here. */
  static final int DEFAULT_TERA_ROWS = 1_000_000;
  /** 2^20 values (4 MiB): a few seconds of MD5s per core, so md5search stays short. */
  static final int DEFAULT_MD5_BITS = 20;

  static final String USAGE = String.join("\n",
      "Usage: ./fawn demo [--paper] [--keep] [--text-files N] [--log-files N]",
      "                   [--text-kb N] [--log-kb N] [--out DIR] [--profile NAME]",
      "                   [--all [--tera-rows N] [--md5-bits B]] [--kv-jobs] [--slaves N]",
      "                   [--compare [--against NAME] [--against-slaves N]] [-D key=value ...]",
      "  Starts an embedded cluster (HDFS, YARN with 4 slave NodeManagers sized by the profile",
      "  and a master NodeManager that runs the ApplicationMasters, JobHistory), writes many",
      "  small text and log files, runs wordcount vs wordcount2 and logcount vs logcount2, and",
      "  prints a table (also written to DIR/summary.json).",
      "  --paper         the paper's file counts: 200 text files and 500 log files",
      "  --text-files N  text files (default 32), --text-kb N their size in KB (default 500)",
      "  --log-files N   log files (default 48), --log-kb N their size in KB (default 200)",
      "  --keep          leave the cluster up afterwards and print its web UI addresses",
      "  --out DIR       where the summary goes (default target/demo)",
      "  --profile NAME  slave profile (built-in name or file; default edison): NodeManager",
      "                  size and task settings, rendered as by fawn profile render",
      "  --all           then every other job of fawn-jobs.jar on the same cluster, each checked:",
      "                  teragen, terasort, teravalidate (rows and checksum must match teragen's),",
      "                  pi (8 maps x 10^7 points), md5gen and md5search (the MD5 of a random",
      "                  value; the preimage found must be that value); a few minutes longer",
      "  --kv-jobs       instead of the counts, the FAWN-KV jobs against a FAWN-KV cluster on",
      "                  loopback: kvload (bulk) of " + KvJobsDemo.LINES + " lines, kvcount, a"
          + " snapshot to HDFS, kvcount",
      "                  over it (./fawn demo --kv runs the store's own demo, then this)",
      "  --slaves N      slave NodeManagers of the profile (default " + DemoProfile.SLAVES + ")",
      "  --compare       then the same count jobs on a second embedded cluster (--against, default",
      "                  " + DEFAULT_AGAINST + ", --against-slaves N of them, default "
          + DEFAULT_AGAINST_SLAVES + ") and the two",
      "                  side by side as fawn energy compare prints them (seed 003's Table 8),",
      "                  the paper's own figures beside; power from each profile's model",
      "  -D key=value    a setting for every job the demo runs, as hadoop jar takes it (e.g.",
      "                  -D mapreduce.job.reduces=1: one reducer instead of one per vcore)",
      "  --tera-rows N   rows teragen writes with --all (default " + DEFAULT_TERA_ROWS
          + " = 100 MB)",
      "  --md5-bits B    md5gen writes all 2^B values with --all, 1-" + Md5Config.MAX_BITS
          + " (default " + DEFAULT_MD5_BITS + ")");

  static DemoOptions parse(String[] args) {
    int textFiles = 32;
    int textKb = 500;
    int logFiles = 48;
    int logKb = 200;
    boolean keep = false;
    Path out = Path.of("target", "demo");
    String profile = DEFAULT_PROFILE;
    boolean all = false;
    boolean kvJobs = false;
    int teraRows = DEFAULT_TERA_ROWS;
    int md5Bits = DEFAULT_MD5_BITS;
    String needsAll = null;
    int slaves = DemoProfile.SLAVES;
    boolean compare = false;
    String against = DEFAULT_AGAINST;
    int againstSlaves = DEFAULT_AGAINST_SLAVES;
    String needsCompare = null;
    List<String> jobOptions = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      switch (arg) {
        case "--paper" -> {
          textFiles = 200;
          logFiles = 500;
        }
        case "--keep" -> keep = true;
        case "--text-files" -> textFiles = positive(arg, value(args, ++i, arg));
        case "--log-files" -> logFiles = positive(arg, value(args, ++i, arg));
        case "--text-kb" -> textKb = positive(arg, value(args, ++i, arg));
        case "--log-kb" -> logKb = positive(arg, value(args, ++i, arg));
        case "--out" -> out = Path.of(value(args, ++i, arg));
        case "--profile" -> profile = value(args, ++i, arg);
        case "--all" -> all = true;
        case "--kv-jobs" -> kvJobs = true;
        case "--slaves" -> slaves = positive(arg, value(args, ++i, arg));
        case "--compare" -> compare = true;
        case "-D" -> jobOptions.add(setting(arg, value(args, ++i, arg)));
        case "--against" -> {
          against = value(args, ++i, arg);
          needsCompare = arg + " " + args[i];
        }
        case "--against-slaves" -> {
          againstSlaves = positive(arg, value(args, ++i, arg));
          needsCompare = arg + " " + args[i];
        }
        case "--tera-rows" -> {
          teraRows = positive(arg, value(args, ++i, arg));
          needsAll = arg + " " + args[i];
        }
        case "--md5-bits" -> {
          md5Bits = md5Bits(arg, value(args, ++i, arg));
          needsAll = arg + " " + args[i];
        }
        default -> {
          if (!arg.startsWith("-D") || arg.length() == 2) {
            throw new IllegalArgumentException("unknown option '" + arg + "'");
          }
          jobOptions.add(setting("-D", arg.substring(2)));
        }
      }
    }
    // Silently ignoring a size for jobs that will not run would hide a forgotten --all.
    if (needsAll != null && !all) {
      throw new IllegalArgumentException(needsAll + " applies only with --all");
    }
    if (needsCompare != null && !compare) {
      throw new IllegalArgumentException(needsCompare + " applies only with --compare");
    }
    if (compare && (all || kvJobs || keep)) {
      throw new IllegalArgumentException("--compare runs the count jobs on two clusters, one"
          + " after the other: not with " + (all ? "--all" : kvJobs ? "--kv-jobs" : "--keep"));
    }
    return new DemoOptions(textFiles, textKb, logFiles, logKb, keep, out, profile, all, teraRows,
        md5Bits, kvJobs, slaves, compare ? new Compare(against, againstSlaves) : null,
        List.copyOf(jobOptions));
  }

  /** {@code -Dkey=value} for a job's command line; a setting without '=' is refused. */
  private static String setting(String option, String setting) {
    int equals = setting.indexOf('=');
    if (equals <= 0) {
      throw new IllegalArgumentException(option + " needs key=value: '" + setting + "'");
    }
    return "-D" + setting;
  }

  private static int md5Bits(String option, String value) {
    int bits = positive(option, value);
    if (bits > Md5Config.MAX_BITS) {
      throw new IllegalArgumentException(option + " must be between 1 and " + Md5Config.MAX_BITS
          + " (md5gen's values are 4-byte records): " + value);
    }
    return bits;
  }
}

package org.fawnpack.minicluster;

import static org.fawnpack.minicluster.CommandLineArgs.positive;
import static org.fawnpack.minicluster.CommandLineArgs.value;

import java.nio.file.Path;

/** The command line of {@code ./fawn demo}. */
record DemoOptions(int textFiles, int textFileKb, int logFiles, int logFileKb, boolean keep,
    Path outDir, String profile) {

  /** The slave profile the demo sizes its NodeManagers and jobs from unless told otherwise. */
  static final String DEFAULT_PROFILE = "edison";

  static final String USAGE = String.join("\n",
      "Usage: ./fawn demo [--paper] [--keep] [--text-files N] [--log-files N]",
      "                   [--text-kb N] [--log-kb N] [--out DIR] [--profile NAME]",
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
      "                  size and task settings, rendered as by fawn profile render");

  static DemoOptions parse(String[] args) {
    int textFiles = 32;
    int textKb = 500;
    int logFiles = 48;
    int logKb = 200;
    boolean keep = false;
    Path out = Path.of("target", "demo");
    String profile = DEFAULT_PROFILE;
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
        default -> throw new IllegalArgumentException("unknown option '" + arg + "'");
      }
    }
    return new DemoOptions(textFiles, textKb, logFiles, logKb, keep, out, profile);
  }
}

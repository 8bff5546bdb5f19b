package org.fawnpack.benchmarks;

import static org.fawnpack.demo.CommandLineArgs.positive;
import static org.fawnpack.demo.CommandLineArgs.value;

import java.nio.file.Path;
import java.util.Set;

/** The command line of the count benchmark. */
record BenchmarkOptions(int textFiles, int textKb, int logFiles, int logKb, int bigKb, int reps,
    int repLimitSeconds, int threads, Set<String> only, Path report, String command) {

  static final String USAGE = String.join("\n",
      "Usage: ./fawn bench [options]",
      "  --text-files N   text files (default 200, the paper's count), --text-kb N each (500)",
      "  --log-files N    log files (default 500, the paper's count), --log-kb N each (200)",
      "  --big-kb N       size of each text file of the large run (default 5120: 200 x 5 MB = 1 GB)",
      "  --reps N         rounds (default 3); a variant slower than --rep-limit s runs once",
      "  --rep-limit S    seconds (default 300)",
      "  --threads N      threads of the single-JVM reference (default: this machine's cores)",
      "  --only LIST      comma list of wordcount, logcount, big, reducers (default: the first",
      "                   three; reducers: wordcount2 and logcount2 with 1 reducer against one",
      "                   per vcore, in a section of its own)",
      "  --report FILE    markdown report to update (default docs/benchmarks.md)");

  boolean runs(String part) {
    return only.isEmpty() ? !part.equals("reducers") : only.contains(part);
  }

  static BenchmarkOptions parse(String[] args) {
    int textFiles = 200;
    int textKb = 500;
    int logFiles = 500;
    int logKb = 200;
    int bigKb = 5120;
    int reps = 3;
    int repLimit = 300;
    int threads = Runtime.getRuntime().availableProcessors();
    Set<String> only = Set.of();
    Path report = Path.of("docs", "benchmarks.md");
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      switch (arg) {
        case "--text-files" -> textFiles = positive(arg, value(args, ++i, arg));
        case "--text-kb" -> textKb = positive(arg, value(args, ++i, arg));
        case "--log-files" -> logFiles = positive(arg, value(args, ++i, arg));
        case "--log-kb" -> logKb = positive(arg, value(args, ++i, arg));
        case "--big-kb" -> bigKb = positive(arg, value(args, ++i, arg));
        case "--reps" -> reps = positive(arg, value(args, ++i, arg));
        case "--rep-limit" -> repLimit = positive(arg, value(args, ++i, arg));
        case "--threads" -> threads = positive(arg, value(args, ++i, arg));
        case "--only" -> only = parts(value(args, ++i, arg));
        case "--report" -> report = Path.of(value(args, ++i, arg));
        default -> throw new IllegalArgumentException("unknown option '" + arg + "'");
      }
    }
    return new BenchmarkOptions(textFiles, textKb, logFiles, logKb, bigKb, reps, repLimit,
        threads, only, report, ("./fawn bench " + String.join(" ", args)).trim());
  }

  private static Set<String> parts(String list) {
    Set<String> parts = Set.of(list.split(","));
    for (String part : parts) {
      if (!Set.of("wordcount", "logcount", "big", "reducers").contains(part)) {
        throw new IllegalArgumentException("--only takes wordcount, logcount, big, reducers: '"
            + part + "'");
      }
    }
    return parts;
  }
}

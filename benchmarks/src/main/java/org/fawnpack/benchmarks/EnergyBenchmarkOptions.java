package org.fawnpack.benchmarks;

import static org.fawnpack.demo.CommandLineArgs.positive;
import static org.fawnpack.demo.CommandLineArgs.value;

import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** The command line of the energy-collector benchmark. */
record EnergyBenchmarkOptions(int seconds, int rounds, int containers, int files, int fileKb,
    Set<String> only, Path report, String command) {

  static final String SAMPLER = "sampler";
  static final String ATTRIBUTION = "attribution";
  static final String OVERHEAD = "overhead";
  static final List<String> PARTS = List.of(SAMPLER, ATTRIBUTION, OVERHEAD);

  static final String USAGE = String.join("\n",
      "Usage: ./fawn bench-energy [options]",
      "  --only LIST      comma list of sampler, attribution, overhead (default: all); the report",
      "                   keeps the previous results of the parts not run",
      "  --seconds N      measured seconds of each sampler configuration and of the attribution",
      "                   run (default 60)",
      "  --rounds R       overhead: rounds of wordcount2 metered and unmetered (default 3)",
      "  --containers N   sampler: containers (child process trees) announced (default 8)",
      "  --files N        overhead: input text files (default 64), --file-kb N each (500)",
      "  --report FILE    markdown report to update (default docs/benchmarks.md)",
      "  --help           this text");

  boolean runs(String part) {
    return only.isEmpty() || only.contains(part);
  }

  /** @throws IllegalArgumentException for an unknown option or a bad value */
  static EnergyBenchmarkOptions parse(String[] args) {
    int seconds = 60;
    int rounds = 3;
    int containers = 8;
    int files = 64;
    int fileKb = 500;
    Set<String> only = Set.of();
    Path report = Path.of("docs", "benchmarks.md");
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      switch (arg) {
        case "--seconds" -> seconds = positive(arg, value(args, ++i, arg));
        case "--rounds" -> rounds = positive(arg, value(args, ++i, arg));
        case "--containers" -> containers = positive(arg, value(args, ++i, arg));
        case "--files" -> files = positive(arg, value(args, ++i, arg));
        case "--file-kb" -> fileKb = positive(arg, value(args, ++i, arg));
        case "--only" -> only = parts(value(args, ++i, arg));
        case "--report" -> report = Path.of(value(args, ++i, arg));
        default -> throw new IllegalArgumentException("unknown option '" + arg + "'");
      }
    }
    return new EnergyBenchmarkOptions(seconds, rounds, containers, files, fileKb, only, report,
        ("./fawn bench-energy " + String.join(" ", args)).trim());
  }

  private static Set<String> parts(String list) {
    Set<String> parts = new LinkedHashSet<>();
    for (String part : list.split(",")) {
      String name = part.trim();
      if (!PARTS.contains(name)) {
        throw new IllegalArgumentException(
            "--only takes " + String.join(", ", PARTS) + ": '" + name + "'");
      }
      parts.add(name);
    }
    return Set.copyOf(parts);
  }
}

package org.fawnpack.benchmarks;

/**
 * {@code ./fawn bench-kv-cluster}: the FAWN-KV cluster on loopback, in parts that each rewrite
 * their own section of docs/benchmarks.md (see {@link KvClusterOptions#USAGE}).
 */
public final class KvClusterBenchmark {

  private KvClusterBenchmark() {}

  public static void main(String[] args) throws Exception {
    KvClusterOptions options;
    try {
      if (args.length == 1 && (args[0].equals("-h") || args[0].equals("--help"))) {
        System.out.println(KvClusterOptions.USAGE);
        return;
      }
      options = KvClusterOptions.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.err.println(KvClusterOptions.USAGE);
      System.exit(2);
      return;
    }
    for (String part : options.parts()) {
      System.out.println("== bench-kv-cluster: " + part);
      switch (part) {
        case "figure10" -> KvFigure10Part.run(options);
        case "ycsb" -> KvYcsbPart.run(options);
        case "moves" -> KvMovesPart.run(options);
        case "routing" -> KvRoutingPart.run(options);
        case "scan" -> KvScanPart.run(options);
        case "mapreduce" -> KvMapReducePart.run(options);
        case "soak" -> KvSoakPart.run(options);
        case "powercut" -> KvPowerCutPart.run(options);
        case "bulk" -> KvBulkPart.run(options);
        case "journal" -> KvJournalPart.run(options);
        default -> throw new IllegalStateException("no part " + part);
      }
    }
  }
}

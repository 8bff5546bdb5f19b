package org.fawnpack.demo;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Seed 003's Table 8 ("Execution time and energy consumption under different cluster size"),
 * typed in: each job's wall time and energy on Edison clusters of 35, 17, 8 and 4 slaves and
 * Dell clusters of 2 and 1, the master left out (§5.2). Printed beside the demo's comparison
 * for reference; its jobs read 1 GB of text and of logs, far more than the demo's.
 */
final class PaperTable8 {
  /** One cell: seconds and joules. */
  record Figure(int seconds, int joules) {}

  private static final Map<String, Map<Integer, Figure>> EDISON = new LinkedHashMap<>();
  private static final Map<String, Map<Integer, Figure>> DELL = new LinkedHashMap<>();

  static {
    edison("wordcount", 310, 17670, 1065, 29485, 1817, 23673, 3283, 21386);
    edison("wordcount2", 182, 10370, 270, 7475, 450, 5862, 1192, 7765);
    edison("logcount", 279, 15903, 601, 16860, 990, 12898, 2233, 14546);
    edison("logcount2", 115, 6555, 118, 3267, 125, 1629, 162, 1055);
    edison("pi", 200, 11445, 334, 9247, 577, 7517, 1076, 7009);
    edison("terasort", 750, 43440, 1364, 37763, 3736, 48675, 8220, 53547);
    dell("wordcount", 213, 40214, 310, 30552);
    dell("wordcount2", 66, 11695, 93, 8124);
    dell("logcount", 206, 40803, 516, 53303);
    dell("logcount2", 59, 9486, 88, 6905);
    dell("pi", 50, 9285, 77, 6878);
    dell("terasort", 331, 64210, 1336, 111422);
  }

  private PaperTable8() {}

  private static void edison(String job, int... figures) {
    EDISON.put(job, cells(new int[] {35, 17, 8, 4}, figures));
  }

  private static void dell(String job, int... figures) {
    DELL.put(job, cells(new int[] {2, 1}, figures));
  }

  private static Map<Integer, Figure> cells(int[] sizes, int[] figures) {
    Map<Integer, Figure> cells = new LinkedHashMap<>();
    for (int i = 0; i < sizes.length; i++) {
      cells.put(sizes[i], new Figure(figures[2 * i], figures[2 * i + 1]));
    }
    return cells;
  }

  /**
   * The paper's figure for {@code job} on {@code slaves} nodes of {@code profile} (the built-in
   * profiles {@code edison} and {@code dell-r620} are the paper's nodes); null where the paper
   * has none.
   */
  static Figure figure(String profile, int slaves, String job) {
    Map<Integer, Figure> row = table(profile).get(job);
    return row == null ? null : row.get(slaves);
  }

  /** The cluster sizes the paper measured for {@code profile}, or none. */
  static List<Integer> sizes(String profile) {
    Map<String, Map<Integer, Figure>> table = table(profile);
    return table.isEmpty() ? List.of() : List.copyOf(table.values().iterator().next().keySet());
  }

  private static Map<String, Map<Integer, Figure>> table(String profile) {
    return switch (profile) {
      case "edison" -> EDISON;
      case "dell-r620" -> DELL;
      default -> Map.of();
    };
  }

  /**
   * The paper's rows for {@code jobs} on the two clusters: each side's size as the demo ran it
   * when the paper measured it, else the paper's largest; time, energy, and the second's ratios
   * to the first. Empty when the paper has neither profile.
   */
  static String text(List<String> jobs, String first, int firstSlaves, String second,
      int secondSlaves) {
    int a = sizeFor(first, firstSlaves);
    int b = sizeFor(second, secondSlaves);
    if (a < 0 && b < 0) {
      return "";
    }
    StringBuilder out = new StringBuilder();
    out.append(String.format(Locale.ROOT, "For reference, seed 003's Table 8 (measured with"
        + " meters; 1 GB inputs; the master left out): %s x %s against %s x %s%n",
        size(a), first, size(b), second));
    String row = "%-14s %22s %22s %8s %8s %9s%n";
    out.append(String.format(Locale.ROOT, row, "job", first, second, "x wall", "x J",
        "x work/J"));
    List<String> missing = new ArrayList<>();
    for (String job : jobs) {
      Figure x = a < 0 ? null : figure(first, a, job);
      Figure y = b < 0 ? null : figure(second, b, job);
      if (x == null && y == null) {
        missing.add(job);
        continue;
      }
      out.append(String.format(Locale.ROOT, row, job, cell(x), cell(y),
          x == null || y == null ? "-" : ratio((double) y.seconds() / x.seconds()),
          x == null || y == null ? "-" : ratio((double) y.joules() / x.joules()),
          // the same work on both: work per joule is the inverse of the joules' ratio
          x == null || y == null ? "-" : ratio((double) x.joules() / y.joules())));
    }
    if (!missing.isEmpty()) {
      out.append("(not in the paper's table: ").append(String.join(", ", missing)).append(")\n");
    }
    return out.toString();
  }

  private static int sizeFor(String profile, int slaves) {
    List<Integer> sizes = sizes(profile);
    if (sizes.isEmpty()) {
      return -1;
    }
    return sizes.contains(slaves) ? slaves : sizes.get(0);
  }

  private static String size(int slaves) {
    return slaves < 0 ? "(none)" : Integer.toString(slaves);
  }

  private static String cell(Figure f) {
    return f == null ? "-" : String.format(Locale.ROOT, "%,d s %,d J", f.seconds(), f.joules());
  }

  private static String ratio(double r) {
    return String.format(Locale.ROOT, "%.2fx", r);
  }
}

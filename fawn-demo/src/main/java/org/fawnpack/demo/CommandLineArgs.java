package org.fawnpack.demo;

/** Option-value helpers shared by the demo's and the benchmarks' command lines. */
public final class CommandLineArgs {

  private CommandLineArgs() {}

  /** The value after an option; an error naming the option when there is none. */
  public static String value(String[] args, int index, String option) {
    if (index >= args.length) {
      throw new IllegalArgumentException(option + " needs a value");
    }
    return args[index];
  }

  /** A whole number of at least 1, or an error naming the option and the value. */
  public static int positive(String option, String value) {
    int n;
    try {
      n = Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(option + " needs a whole number: '" + value + "'", e);
    }
    if (n < 1) {
      throw new IllegalArgumentException(option + " must be at least 1: " + value);
    }
    return n;
  }
}

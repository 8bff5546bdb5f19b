package org.fawnpack.jobs.md5;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;

/**
 * The options of md5gen and md5search ({@code --bits B}, {@code --maps N}, and for md5search
 * {@code --target HEX}, {@code --no-combiner}), before or between the paths. Each value is
 * checked here, so a bad one is a usage error that names it.
 */
final class Md5Options {
  private final List<String> paths = new ArrayList<>();
  private Integer bits;
  private Integer maps;
  private String target;
  private boolean noCombiner;

  private Md5Options() {}

  /**
   * @param search true for md5search (accepts --target and --no-combiner)
   * @throws IllegalArgumentException with the problem, for an unknown option or a bad value
   */
  static Md5Options parse(String[] args, boolean search) {
    Md5Options options = new Md5Options();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      switch (arg) {
        case "--bits" -> options.bits = bitsValue(valueOf(args, i++));
        case "--maps" -> options.maps = mapsValue(valueOf(args, i++));
        case "--target" -> {
          if (!search) {
            throw new IllegalArgumentException("unknown option --target");
          }
          options.target = valueOf(args, i++);
          Md5Config.parseTarget(options.target);
        }
        case "--no-combiner" -> {
          if (!search) {
            throw new IllegalArgumentException("unknown option --no-combiner");
          }
          options.noCombiner = true;
        }
        default -> {
          if (arg.startsWith("--")) {
            throw new IllegalArgumentException("unknown option " + arg);
          }
          options.paths.add(arg);
        }
      }
    }
    return options;
  }

  private static String valueOf(String[] args, int i) {
    if (i + 1 >= args.length) {
      throw new IllegalArgumentException(args[i] + " needs a value");
    }
    return args[i + 1];
  }

  private static int bitsValue(String text) {
    int bits = wholeNumber("--bits", text);
    Md5Config.checkBits(bits, "--bits " + text);
    return bits;
  }

  private static int mapsValue(String text) {
    int maps = wholeNumber("--maps", text);
    if (maps < 1) {
      throw new IllegalArgumentException("--maps must be at least 1, was " + text);
    }
    return maps;
  }

  private static int wholeNumber(String option, String text) {
    try {
      return Integer.parseInt(text);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(option + " must be a whole number, was '" + text + "'");
    }
  }

  /** The non-option arguments, in order. */
  List<String> paths() {
    return paths;
  }

  /** The --target value, or null when not given. */
  String target() {
    return target;
  }

  /** The --bits value, or null when not given. */
  Integer bits() {
    return bits;
  }

  /** Writes the given options into the job configuration (what was not given stays as is). */
  void applyTo(Configuration conf) {
    if (bits != null) {
      conf.setInt(Md5Config.BITS.name(), bits);
    }
    if (maps != null) {
      conf.setInt(Md5Config.MAPS.name(), maps);
    }
    if (target != null) {
      conf.set(Md5Config.TARGET.name(), target);
    }
    if (noCombiner) {
      conf.setBoolean(Md5Config.COMBINE.name(), false);
    }
  }
}

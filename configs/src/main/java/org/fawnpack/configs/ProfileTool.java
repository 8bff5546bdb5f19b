package org.fawnpack.configs;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * {@code fawn profile}: render, validate, derive and diff tuning profiles. A Hadoop Tool, so
 * generic options work; exit 0 when fine, 1 when validation finds errors, 2 on bad input.
 */
public final class ProfileTool extends Configured implements Tool {
  public static final int EXIT_ERRORS = 1;
  public static final int EXIT_USAGE = 2;

  static final String USAGE = String.join("\n",
      "Usage: fawn profile <command> [options]",
      "  render --inventory FILE --out DIR",
      "      one Hadoop config directory per host (core/hdfs/yarn/mapred-site, capacity-scheduler,",
      "      workers) plus DIR/workers and DIR/README.md; refuses an inventory that validate rejects",
      "  validate DIR | validate --inventory FILE",
      "      errors (exit 1) and warnings, each naming host, file, key and value",
      "  derive --cores N --memory SIZE --disks N [--role slave|master] [--name NAME]",
      "      a profile (YAML) from a node's resources: HDP yarn-utils rules, or the sub-2 GB rule",
      "  diff PROFILE",
      "      what a profile changes against Hadoop's defaults, and why",
      "  list",
      "      the built-in profiles",
      "PROFILE is a built-in name (" + String.join(", ", ProfileReader.BUILT_IN) + ") or a file.");

  private final PrintStream out;
  private final PrintStream err;

  public ProfileTool() {
    this(System.out, System.err);
  }

  ProfileTool(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new ProfileTool(), args));
  }

  @Override
  public int run(String[] args) {
    if (args.length == 0) {
      err.println(USAGE);
      return EXIT_USAGE;
    }
    List<String> rest = Arrays.asList(args).subList(1, args.length);
    try {
      return switch (args[0]) {
        case "render" -> render(new Options(rest));
        case "validate" -> validate(new Options(rest));
        case "derive" -> derive(new Options(rest));
        case "diff" -> diff(new Options(rest));
        case "list" -> list();
        case "-h", "--help", "help" -> {
          out.println(USAGE);
          yield 0;
        }
        default -> usage("unknown command '" + args[0] + "'");
      };
    } catch (IllegalArgumentException | ConfigFileException e) {
      return usage(e.getMessage());
    } catch (UncheckedIOException e) {
      err.println("profile: " + e.getMessage() + ": " + e.getCause().getMessage());
      return EXIT_ERRORS;
    }
  }

  private int usage(String problem) {
    err.println("profile: " + problem);
    err.println(USAGE);
    return EXIT_USAGE;
  }

  private int render(Options o) {
    Path inventoryFile = Path.of(o.required("--inventory"));
    Path dir = Path.of(o.required("--out"));
    o.noPositionals();
    RenderedCluster cluster = ClusterRenderer.render(InventoryReader.read(inventoryFile));
    List<Finding> findings = Validator.validate(cluster.confs());
    report(findings);
    if (Validator.hasErrors(findings)) {
      err.println("profile: nothing written: fix the errors above in " + inventoryFile
          + " or its profiles");
      return EXIT_ERRORS;
    }
    try {
      cluster.write(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + dir, e);
    }
    out.printf(Locale.ROOT, "Rendered %d hosts of cluster %s into %s (see %s)%n",
        cluster.hosts().size(), cluster.cluster(), dir, dir.resolve("README.md"));
    return 0;
  }

  private int validate(Options o) {
    ClusterConfs confs;
    if (o.has("--inventory")) {
      Path inventoryFile = Path.of(o.required("--inventory"));
      o.noPositionals();
      confs = ClusterRenderer.render(InventoryReader.read(inventoryFile)).confs();
    } else {
      confs = ClusterConfs.read(Path.of(o.onePositional("DIR")));
    }
    List<Finding> findings = Validator.validate(confs);
    report(findings);
    long errors = findings.stream().filter(f -> f.severity() == Finding.Severity.ERROR).count();
    out.printf(Locale.ROOT, "%s: %d hosts, %d errors, %d warnings%n", confs.where(),
        confs.hostNames().size(), errors, findings.size() - errors);
    return errors > 0 ? EXIT_ERRORS : 0;
  }

  private void report(List<Finding> findings) {
    findings.forEach(f -> (f.severity() == Finding.Severity.ERROR ? err : out).println(f));
  }

  private int derive(Options o) {
    int cores = o.intValue("--cores");
    int memory = Sizes.megabytes("--memory", o.required("--memory"));
    int disks = o.intValue("--disks");
    String roleName = o.optional("--role", "slave");
    Role role = switch (roleName) {
      case "slave" -> Role.SLAVE;
      case "master" -> Role.MASTER;
      default -> throw new IllegalArgumentException("--role must be slave or master, was '"
          + roleName + "'");
    };
    String name = o.optional("--name", "derived-" + cores + "c-" + memory + "m");
    o.noPositionals();
    out.print(ProfileYaml.write(Deriver.derive(name, cores, memory, disks, role)));
    return 0;
  }

  private int diff(Options o) {
    out.print(ProfileDiff.text(ProfileReader.load(o.onePositional("PROFILE"))));
    return 0;
  }

  private int list() {
    for (String name : ProfileReader.BUILT_IN) {
      Profile p = ProfileReader.builtIn(name);
      out.printf(Locale.ROOT, "%-14s %-6s %s%n", name, p.role().yamlName(), p.description());
    }
    return 0;
  }

  /** {@code --name value} options and positional words of one subcommand. */
  private static final class Options {
    private final java.util.Map<String, String> named = new java.util.LinkedHashMap<>();
    private final List<String> positionals = new java.util.ArrayList<>();

    Options(List<String> args) {
      for (int i = 0; i < args.size(); i++) {
        String a = args.get(i);
        if (a.startsWith("--")) {
          if (i + 1 >= args.size()) {
            throw new IllegalArgumentException(a + " needs a value");
          }
          named.put(a, args.get(++i));
        } else {
          positionals.add(a);
        }
      }
    }

    boolean has(String name) {
      return named.containsKey(name);
    }

    String required(String name) {
      String v = named.remove(name);
      if (v == null) {
        throw new IllegalArgumentException(name + " is required");
      }
      return v;
    }

    String optional(String name, String defaultValue) {
      String v = named.remove(name);
      return v == null ? defaultValue : v;
    }

    int intValue(String name) {
      String v = required(name);
      try {
        return Integer.parseInt(v);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(name + " must be a whole number, was '" + v + "'");
      }
    }

    String onePositional(String what) {
      if (positionals.size() != 1) {
        throw new IllegalArgumentException("expected one " + what + ", got " + positionals);
      }
      noNamed();
      return positionals.get(0);
    }

    void noPositionals() {
      if (!positionals.isEmpty()) {
        throw new IllegalArgumentException("unexpected argument(s) " + positionals);
      }
      noNamed();
    }

    private void noNamed() {
      if (!named.isEmpty()) {
        throw new IllegalArgumentException("unknown option(s) " + named.keySet());
      }
    }
  }
}

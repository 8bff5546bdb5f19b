package org.fawnpack.kv.cli;

import java.io.Closeable;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.fawnpack.kv.client.FawnKvClient;

/** {@code ./fawn kv}: run FAWN-KV nodes, or talk to a running cluster. */
public final class KvCommand {
  public static final int EXIT_OK = 0;
  public static final int EXIT_FAILED = 1;
  public static final int EXIT_USAGE = 2;

  static final String USAGE = """
      Usage: fawn kv [-Dfawn.kv.<key>=<value> ...] COMMAND [options]
        local [--backends N] [--frontends M] [--dir DIR]
                  ZooKeeper, N back-ends (default 5) and M front-ends (default 2) in this
                  process on loopback; prints the front-ends' addresses; Ctrl-C stops
        backend --id ID --data DIR [--host ADDRESS] [--port P] [--advertise-port Q]
                  a back-end that other nodes reach at ADDRESS:P (default 127.0.0.1, any port),
                  or at ADDRESS:Q when a proxy or port forward leads there
        frontend --name NAME [--host ADDRESS] [--port P]
                  a front-end with its coordinator
        put --frontend HOST:PORT[,HOST:PORT...] KEY VALUE
        get --frontend HOST:PORT[,...] KEY    prints the value; exit 1 when absent
        delete --frontend HOST:PORT[,...] KEY exit 1 when absent
                  with several front-ends, the next is used when one is down
        ring      the ring's epoch, back-ends and arcs with their chains
        scan [--prefix P] [--print entries|keys|count] [--limit N]
                  every entry (or those whose keys start with P) from the arcs' tails,
                  as KEY<TAB>VALUE lines, keys, or their number; a summary on stderr
        snapshot --to DIR
                  (./fawn kv only: it runs on Hadoop's class path) every arc's datastore
                  files copied from its tail into DIR on HDFS or any Hadoop file system,
                  and DIR/MANIFEST; kvcount and kvexport --snapshot DIR read it offline
        restore --from DIR
                  (./fawn kv only: a MapReduce job, kvload --snapshot DIR) the snapshot in
                  DIR loaded into this cluster by attached files, placed by its own ring:
                  every arc visible at once or none
        leave --id ID [--timeout-s S]
                  back-end ID hands its arcs over (its chains stay whole meanwhile), then
                  leaves; waits up to S s (default 600) and says when to stop its process
        remove --id ID [--timeout-s S]
                  down back-end ID is removed for good: its virtual nodes go and the arcs
                  they bound merge into their successors' (as after fawn.kv.down-grace-ms);
                  it is not taken back under ID; waits up to S s (default 600)
        lost --arc END [--timeout-s S]
                  the arc ending at END (as ring prints it), every member of which went
                  down and none of whose files will come back, is declared gone: its
                  requests fail by name and the other arcs heal without it
        bulk-finish [--job JOB] [--timeout-s S]
                  finishes committed bulk loads (every one, or JOB) whose driver died
                  after the commit: their arcs serve nothing until then
        demo [--dir DIR] [--keys N] [--seconds S]
                  (also ./fawn demo --kv) ZooKeeper, 5 back-ends as child JVMs, 2 front-ends:
                  loads N keys (default 20000), Zipf gets S s (default 5) with the caches off
                  and on, kills a back-end under writes and checks them, adds a back-end
        stats [--interval-ms MS]
                  per live back-end: arcs by role, keys, log bytes, gets and writes since
                  it started and per second over MS (default 1000); per front-end: its slice,
                  gets, writes, cache hits and hit rate; exit 1 if a node is silent
      backend, frontend, ring, scan, snapshot, leave, remove, lost, bulk-finish and stats need -Dfawn.kv.zookeeper.quorum=HOST:PORT,...;
      every node and request proves the cluster secret in fawn.kv.secret-file (default
      ~/.fawn-kv/secret, mode 600; local makes it when missing)
      Keys: docs/configuration.md (fawn.kv.*). Exit: 0 done, 1 failed or absent, 2 usage.
      """;

  /** The commands whose code lives outside this jar: the loopback harness's. */
  private static final Map<String, String> ELSEWHERE = Map.of(
      "local", "fawn-kv-loopback.jar (org.fawnpack.kv.loopback.LoopbackCommand)",
      "demo", "fawn-kv-loopback.jar (org.fawnpack.kv.loopback.LoopbackCommand)");

  /**
   * A command another module adds to this command line (the loopback harness adds
   * {@code local} and {@code demo}), run with its parsed settings and options.
   */
  @FunctionalInterface
  public interface Subcommand {
    int run(KvCommand command, Map<String, String> settings, CommandLine line) throws Exception;
  }

  private final PrintStream out;
  private final PrintStream err;
  private final Map<String, Subcommand> added;

  public KvCommand(PrintStream out, PrintStream err) {
    this(out, err, Map.of());
  }

  /** With {@code added} commands, by name, beside this class's own. */
  public KvCommand(PrintStream out, PrintStream err, Map<String, Subcommand> added) {
    this.out = out;
    this.err = err;
    this.added = Map.copyOf(added);
  }

  public static void main(String[] args) {
    System.exit(new KvCommand(System.out, System.err).run(args));
  }

  public PrintStream out() {
    return out;
  }

  public PrintStream err() {
    return err;
  }

  public int run(String[] args) {
    Map<String, String> settings = new LinkedHashMap<>();
    List<String> rest = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      String setting = a.equals("-D") && i + 1 < args.length ? args[++i]
          : a.startsWith("-D") ? a.substring(2) : null;
      if (setting == null) {
        rest.add(a);
      } else if (setting.indexOf('=') < 1) {
        return usage("-D wants name=value, got '" + setting + "'");
      } else {
        settings.put(setting.substring(0, setting.indexOf('=')),
            setting.substring(setting.indexOf('=') + 1));
      }
    }
    if (rest.isEmpty() || rest.get(0).equals("--help") || rest.get(0).equals("-h")) {
      out.print(USAGE);
      return rest.isEmpty() ? EXIT_USAGE : EXIT_OK;
    }
    try {
      KvSettings kv = KvSettings.from(settings);
      CommandLine line = CommandLine.parse(rest.subList(1, rest.size()));
      Subcommand other = added.get(rest.get(0));
      if (other != null) {
        return runAdded(other, settings, line, rest.get(0));
      }
      return switch (rest.get(0)) {
        case "local", "demo" -> usage(rest.get(0) + " runs a cluster on loopback, from "
            + ELSEWHERE.get(rest.get(0)) + ": use ./fawn kv " + rest.get(0));
        case "backend" -> serve(KvNodes.backend(kv, line.required("--id"), bind(line),
            line.intOption("--advertise-port", 0, 1, 65_535), Path.of(line.required("--data"))),
            "backend " + line.option("--id", ""));
        case "frontend" -> serve(KvNodes.frontEnd(kv, line.required("--name"), bind(line)),
            "frontend " + line.option("--name", ""));
        case "put", "get", "delete" -> request(kv, rest.get(0), line);
        case "leave" -> new LeaveCommand(out, err).run(kv, line);
        case "remove" -> new RemoveCommand(out, err).run(kv, line);
        case "lost" -> new LostCommand(out, err).run(kv, line);
        case "bulk-finish" -> new BulkFinishCommand(out, err).run(kv, line);
        case "scan" -> new ScanCommand(out, err).run(kv, line);
        case "ring" -> {
          line.noPositionals();
          yield new ClusterInspection(kv, out, err).ring();
        }
        case "stats" -> {
          line.noPositionals();
          yield new ClusterInspection(kv, out, err).stats(
              line.intOption("--interval-ms", 1_000, 1, 600_000));
        }
        case "snapshot" -> usage("snapshot runs on Hadoop's class path: use ./fawn kv"
            + " snapshot --to DIR (or hadoop jar fawn-jobs.jar kvsnapshot --to DIR)");
        case "restore" -> usage("restore is a MapReduce job: use ./fawn kv restore --from DIR"
            + " (or hadoop jar fawn-jobs.jar kvload --snapshot DIR)");
        default -> usage("unknown command '" + rest.get(0) + "'");
      };
    } catch (IllegalArgumentException e) {
      return usage(e.getMessage());
    } catch (IOException e) {
      err.println("fawn kv: " + e.getMessage());
      return EXIT_FAILED;
    }
  }

  private int runAdded(Subcommand command, Map<String, String> settings, CommandLine line,
      String name) throws IOException {
    try {
      return command.run(this, settings, line);
    } catch (IOException | RuntimeException e) {
      throw e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(name + " interrupted", e);
    } catch (Exception e) {
      throw new IOException(name + " failed: " + e, e);
    }
  }

  private int usage(String problem) {
    err.println("fawn kv: " + problem);
    err.print(USAGE);
    return EXIT_USAGE;
  }

  private static InetSocketAddress bind(CommandLine line) {
    return new InetSocketAddress(line.option("--host", "127.0.0.1"),
        line.intOption("--port", 0, 0, 65_535));
  }

  /** Runs until SIGINT/SIGTERM, then closes {@code node} (FAWN-KV has no Hadoop hooks to mind). */
  public int serve(Closeable node, String what) {
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      err.println("fawn kv: stopping " + what);
      try {
        node.close();
      } catch (IOException e) {
        err.println("fawn kv: " + what + " did not stop cleanly: " + e.getMessage());
      }
      stopped.countDown();
    }, "fawn-kv-stop"));
    err.println("fawn kv: " + what + " running; Ctrl-C stops it");
    try {
      stopped.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return EXIT_OK;
  }

  private int request(KvSettings kv, String command, CommandLine line) throws IOException {
    List<String> words = line.positionals(command.equals("put") ? 2 : 1,
        command.equals("put") ? "KEY VALUE" : "KEY");
    byte[] key = words.get(0).getBytes(StandardCharsets.UTF_8);
    List<InetSocketAddress> frontEnds = new ArrayList<>();
    for (String address : line.required("--frontend").split(",")) {
      String[] hostPort = address.split(":");
      if (hostPort.length != 2) {
        throw new IllegalArgumentException("--frontend wants HOST:PORT[,HOST:PORT...], got '"
            + address + "'");
      }
      frontEnds.add(new InetSocketAddress(hostPort[0],
          CommandLine.parseInt("--frontend's port", hostPort[1], 1, 65_535)));
    }
    try (FawnKvClient client = FawnKvClient.builder(frontEnds, kv.secret())
        .deadline(Duration.ofMillis(kv.requestTimeoutMs()))
        .tryTimeout(Duration.ofMillis(kv.tryTimeoutMs()))
        .retryPauses(kv.backoffs().request()).connect()) {
      switch (command) {
        case "put" -> client.put(key, words.get(1).getBytes(StandardCharsets.UTF_8));
        case "get" -> {
          byte[] value = client.get(key);
          if (value == null) {
            err.println("fawn kv: no value under '" + words.get(0) + "'");
            return EXIT_FAILED;
          }
          out.println(new String(value, StandardCharsets.UTF_8));
        }
        default -> {
          if (!client.delete(key)) {
            err.println("fawn kv: no value under '" + words.get(0) + "'");
            return EXIT_FAILED;
          }
        }
      }
    }
    return EXIT_OK;
  }

  /** A command's options ({@code --name value}) and positional words. */
  public static final class CommandLine {
    private final Map<String, String> options = new HashMap<>();
    private final List<String> positionals = new ArrayList<>();

    public static CommandLine parse(List<String> words) {
      CommandLine line = new CommandLine();
      for (int i = 0; i < words.size(); i++) {
        String w = words.get(i);
        if (w.startsWith("--")) {
          if (i + 1 >= words.size()) {
            throw new IllegalArgumentException(w + " wants a value");
          }
          line.options.put(w, words.get(++i));
        } else {
          line.positionals.add(w);
        }
      }
      return line;
    }

    public String required(String name) {
      String value = options.get(name);
      if (value == null) {
        throw new IllegalArgumentException("missing " + name);
      }
      return value;
    }

    public String option(String name, String fallback) {
      return options.getOrDefault(name, fallback);
    }

    public int intOption(String name, int fallback, int min, int max) {
      String value = options.get(name);
      return value == null ? fallback : parseInt(name, value, min, max);
    }

    public static int parseInt(String what, String value, int min, int max) {
      try {
        int n = Integer.parseInt(value);
        if (n >= min && n <= max) {
          return n;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      throw new IllegalArgumentException(what + " must be a whole number in " + min + ".."
          + max + ", got '" + value + "'");
    }

    public List<String> positionals(int count, String what) {
      if (positionals.size() != count) {
        throw new IllegalArgumentException("expected " + what + ", got " + positionals);
      }
      return positionals;
    }

    public void noPositionals() {
      positionals(0, "no arguments besides options");
    }
  }
}

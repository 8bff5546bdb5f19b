package org.fawnpack.kv.loopback;

import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.fawnpack.kv.cli.KvCommand;

/**
 * {@code ./fawn kv} with the loopback harness's two commands added to the servers' own
 * ({@link KvCommand}): {@code local}, a whole cluster in this process, and {@code demo}, the
 * demo of {@code ./fawn demo --kv}. Every other command is {@link KvCommand}'s.
 */
public final class LoopbackCommand {

  private LoopbackCommand() {}

  public static void main(String[] args) {
    System.exit(command(System.out, System.err).run(args));
  }

  /** The command line with {@code local} and {@code demo}, writing to {@code out} and {@code err}. */
  static KvCommand command(PrintStream out, PrintStream err) {
    return new KvCommand(out, err, Map.of(
        "local", LoopbackCommand::local,
        "demo", (command, settings, line) -> new KvDemo(command.out(), command.err())
            .run(settings, line)));
  }

  private static int local(KvCommand command, Map<String, String> settings,
      KvCommand.CommandLine line) throws Exception {
    line.noPositionals();
    LocalCluster cluster = LocalCluster.start(settings, line.intOption("--backends", 5, 1, 250),
        line.intOption("--frontends", 2, 1, 16), Path.of(line.option("--dir", "target/kv-local")),
        Duration.ofSeconds(60));
    List<InetSocketAddress> frontEnds = cluster.frontEndAddresses();
    PrintStream out = command.out();
    out.println("FAWN-KV local cluster up: ZooKeeper at " + cluster.zooKeeperQuorum());
    frontEnds.forEach(f -> out.println("front-end " + address(f)));
    out.println("Try: ./fawn kv put --frontend " + address(frontEnds.get(0)) + " hello world");
    out.println("     ./fawn kv -Dfawn.kv.zookeeper.quorum=" + cluster.zooKeeperQuorum()
        + " ring");
    return command.serve(cluster, "local cluster");
  }

  private static String address(InetSocketAddress a) {
    return a.getAddress().getHostAddress() + ":" + a.getPort();
  }
}

package org.fawnpack.benchmarks.ycsb;

import java.io.Closeable;
import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Debian's {@code etcd} as a durability-matched peer of FAWN-KV: three members as child
 * processes on loopback, one static cluster, each member fsyncing its write-ahead log before it
 * acknowledges (etcd's default; FAWN-KV's chain acknowledges a put once every replica has it).
 * Member {@code mI} keeps its data in {@code dir/mI} and logs to {@code dir/mI.log}.
 */
public final class EtcdCluster implements Closeable {
  public static final int MEMBERS = 3;
  private static final Duration START_DEADLINE = Duration.ofSeconds(30);
  private static final Logger LOG = LoggerFactory.getLogger(EtcdCluster.class);

  /** One member: its name, its process, where clients reach it and where it logs. */
  private record Member(String name, Process process, URI clientUrl, Path log) {}

  private final List<Member> members;

  private EtcdCluster(List<Member> members) {
    this.members = members;
  }

  /** The {@code etcd} program on the PATH (Debian's {@code /usr/bin/etcd}), if installed. */
  public static Optional<Path> find() {
    for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin")
        .split(File.pathSeparator)) {
      Path candidate = Path.of(dir, "etcd");
      if (Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  /**
   * Starts the three members with their files in {@code dir} (an earlier run's removed first)
   * and waits (30 s at most) until each reports itself healthy, which needs an elected leader.
   *
   * @throws IOException when a member exits or is not healthy in time, naming it and its log
   */
  public static EtcdCluster start(Path program, Path dir) throws IOException,
      InterruptedException {
    Files.createDirectories(dir);
    for (int i = 0; i < MEMBERS; i++) {
      // A member that finds an earlier run's log restarts from it, into that run's cluster
      // (its peers' old ports), and is never healthy: each run starts from empty.
      org.fawnpack.benchmarks.FileTrees.delete(dir.resolve("m" + i));
    }
    int[] ports = freePorts(2 * MEMBERS);
    StringJoiner initialCluster = new StringJoiner(",");
    for (int i = 0; i < MEMBERS; i++) {
      initialCluster.add("m" + i + "=" + url(ports[MEMBERS + i]));
    }
    String token = "fawn-ycsb-" + UUID.randomUUID(); // never joins a cluster of an earlier run
    List<Member> members = new ArrayList<>();
    EtcdCluster cluster = new EtcdCluster(members);
    try {
      for (int i = 0; i < MEMBERS; i++) {
        members.add(startMember(program, dir, "m" + i, url(ports[i]), url(ports[MEMBERS + i]),
            initialCluster.toString(), token));
      }
      cluster.awaitHealthy();
    } catch (IOException | RuntimeException | InterruptedException e) {
      cluster.close();
      throw e;
    }
    LOG.info("etcd cluster of {} members up at {}", MEMBERS, cluster.endpoints());
    return cluster;
  }

  private static Member startMember(Path program, Path dir, String name, String clientUrl,
      String peerUrl, String initialCluster, String token) throws IOException {
    Path log = dir.resolve(name + ".log").toAbsolutePath();
    // No --unsafe-no-fsync: a put is acknowledged only once its WAL entry is on disk.
    Process process = new ProcessBuilder(List.of(program.toString(),
        "--name", name,
        "--data-dir", dir.resolve(name).toAbsolutePath().toString(),
        "--listen-client-urls", clientUrl, "--advertise-client-urls", clientUrl,
        "--listen-peer-urls", peerUrl, "--initial-advertise-peer-urls", peerUrl,
        "--initial-cluster", initialCluster, "--initial-cluster-state", "new",
        "--initial-cluster-token", token,
        "--logger", "zap", "--log-outputs", "stderr")) // 3.4's default logger is deprecated
        .redirectErrorStream(true).redirectOutput(log.toFile())
        .redirectInput(new File("/dev/null")).start();
    return new Member(name, process, URI.create(clientUrl), log);
  }

  private void awaitHealthy() throws IOException, InterruptedException {
    long deadline = System.nanoTime() + START_DEADLINE.toNanos();
    for (Member m : members) {
      EtcdGateway gateway = new EtcdGateway(m.clientUrl(), Duration.ofSeconds(2));
      while (true) {
        IOException last = null;
        if (!m.process().isAlive()) {
          throw new IOException("etcd member " + m.name() + " exited with "
              + m.process().exitValue() + " while starting; see " + m.log());
        }
        try {
          if (gateway.healthy()) {
            break;
          }
        } catch (IOException e) {
          last = e; // not listening yet, or no leader yet
        }
        if (System.nanoTime() > deadline) {
          throw new IOException("etcd member " + m.name() + " at " + m.clientUrl()
              + " was not healthy within " + START_DEADLINE.toSeconds() + " s; see "
              + m.log(), last);
        }
        Thread.sleep(100); // a member is up in ~1 s; bounded by the deadline above
      }
    }
  }

  /** Distinct free ports: all held open at once, so no two are the same. */
  private static int[] freePorts(int count) throws IOException {
    List<ServerSocket> probes = new ArrayList<>();
    try {
      int[] ports = new int[count];
      for (int i = 0; i < count; i++) {
        ServerSocket probe = new ServerSocket(0);
        probes.add(probe);
        ports[i] = probe.getLocalPort();
      }
      return ports;
    } finally {
      for (ServerSocket probe : probes) {
        probe.close();
      }
    }
  }

  private static String url(int port) {
    return "http://127.0.0.1:" + port;
  }

  /** The members' client URLs, {@code http://127.0.0.1:port}, in member order. */
  public List<String> endpoints() {
    return members.stream().map(m -> m.clientUrl().toString()).toList();
  }

  /** The members' processes (for their CPU time, say), in member order. */
  public List<ProcessHandle> processes() {
    return members.stream().map(m -> m.process().toHandle()).toList();
  }

  /**
   * Stops the members one after another, each given 10 s before it is killed. Asked all at
   * once, the leader waits ~7 s to hand its leadership to followers that are stopping too;
   * one by one, the cluster stops in well under a second.
   */
  @Override
  public void close() {
    boolean interrupted = false;
    for (Member m : members) {
      if (interrupted) {
        m.process().destroyForcibly(); // no more waiting once asked to stop
        continue;
      }
      m.process().destroy();
      try {
        if (!m.process().waitFor(10, TimeUnit.SECONDS)) {
          LOG.warn("etcd member {} did not stop within 10 s; killing it; see {}", m.name(),
              m.log());
          m.process().destroyForcibly();
        }
      } catch (InterruptedException e) {
        m.process().destroyForcibly();
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}

package org.fawnpack.configs;

import java.util.Map;
import java.util.TreeMap;

/**
 * The README written next to a rendered cluster: what is where, how to push it, the start order
 * ({@link StartStep}) for a fresh cluster and a restart, and how to keep one's own settings.
 */
final class ClusterReadme {
  private ClusterReadme() {}

  static String text(ClusterPlan plan) {
    Inventory inv = plan.inventory();
    String master = inv.master().name();
    String conf = inv.confDir();
    Map<String, Integer> profiles = new TreeMap<>();
    inv.hosts().forEach(h -> profiles.merge(h.profile().name(), 1, Integer::sum));
    StringBuilder r = new StringBuilder();
    r.append("# Cluster ").append(inv.cluster()).append("\n\n");
    r.append("Rendered by `fawn profile render --inventory ").append(inv.file())
        .append("`. Do not edit these files: a render rewrites them. Change the inventory or a"
        + " profile, or put your own settings in the inventory's `overrides:` (they are written"
        + " last into every render and validated with the rest), and render again.\n\n");
    r.append("- master: `").append(master).append("` (NameNode, ResourceManager, JobHistory"
        + " server, and a NodeManager labelled `master` that runs only ApplicationMasters)\n");
    r.append("- slaves: ").append(plan.dataNodes()).append(" (DataNode + NodeManager), listed in"
        + " `workers`\n");
    profiles.forEach((p, n) -> r.append("- profile `").append(p).append("`: ").append(n)
        .append(" host(s)\n"));
    r.append("- cluster-wide: block ").append(plan.blockSizeMb()).append(" MB, replication ")
        .append(plan.replication()).append(", scheduler allocation ").append(plan.schedulerMinMb())
        .append("..").append(plan.schedulerMaxMb()).append(" MB, task sizes from `")
        .append(plan.jobProfile().name()).append("`, AM sizes from `")
        .append(plan.masterProfile().name()).append("`\n");
    r.append("- Hadoop installed in `").append(inv.hadoopHome()).append("` on every host (tasks"
        + " get it as `HADOOP_MAPRED_HOME`); data directories `").append(inv.dataDirs())
        .append("`, one per disk of each host's profile\n");
    racks(r, inv);
    r.append('\n');
    r.append("Each directory `<host>/` is that host's `HADOOP_CONF_DIR`; `client/` is the"
        + " configuration to submit jobs with (`HADOOP_CONF_DIR=client hadoop jar fawn-jobs.jar"
        + " wordcount2 /in /out`). Every property has a `<description>` saying why it has its"
        + " value.\n\n");
    r.append("## Check\n\n```sh\n./fawn profile validate <this directory>\n```\n\n");
    r.append("## Push\n\nCopy `fawn-energy-collector-aux.jar` to `").append(inv.energyJar())
        .append("` on every host first (docs/energy.md). Then, from this directory, to every"
        + " host's `").append(conf).append("`:\n\n```sh\nfor h in ").append(master)
        .append(" $(cat workers); do\n")
        .append("  rsync -av --chmod=Du=rwx,Dgo=rx,Fu=rw,Fgo=r \"$h/\" \"$h:").append(conf)
        .append("/\"\ndone\n```\n\n");
    r.append("The daemons create their directories under the data disks; each disk's `")
        .append(inv.dataDirs().replace("{host}", "<host>").replace("{disk}", "N"))
        .append("` parent must exist and be writable by the Hadoop user.\n\n");
    start(r, master);
    r.append("Then `yarn node -list -showDetails` shows each NodeManager's memory and vcores,"
        + " and the master's with label `master`.\n\n");
    r.append("## Restart one daemon\n\nStop it and start it again (`yarn --daemon stop"
        + " nodemanager; yarn --daemon start nodemanager`). A NodeManager runs with recovery on"
        + " and fixed ports: its running containers and their map outputs survive, and tasks find"
        + " the energy collector on the same port. To stop the whole cluster, stop the daemons in"
        + " the reverse order of the list above.\n");
    return r.toString();
  }

  /** The failure domains, when the hosts span more than one (else Hadoop's flat default). */
  private static void racks(StringBuilder r, Inventory inv) {
    Map<String, Integer> racks = new TreeMap<>();
    inv.domains().values().forEach(d -> racks.merge(d, 1, Integer::sum));
    if (racks.size() < 2) {
      r.append("- racks: none rendered, every host is in one failure domain (Hadoop's"
          + " `/default-rack`)\n");
      return;
    }
    r.append("- racks (failure domains; HDFS writes a block's second replica into another one): ");
    r.append(String.join(", ", racks.entrySet().stream()
        .map(e -> "`" + e.getKey() + "` " + e.getValue()).toList()));
    r.append(" host(s); `").append(TopologyTable.FILE).append("` in every directory, read at `")
        .append(TopologyTable.installedPath(inv)).append("` by Hadoop's TableMapping\n");
  }

  /** The start order, with the first-start steps marked. */
  private static void start(StringBuilder r, String master) {
    r.append("## Start\n\nIn this order, on a fresh cluster and after a stop (steps marked"
        + " *first start* only on a fresh cluster):\n\n");
    int n = 1;
    for (StartStep step : StartStep.values()) {
      String where = step.where() == StartStep.Where.MASTER ? "on `" + master + "`"
          : "on every host in `workers`";
      r.append(n++).append(". ").append(step.firstStartOnly() ? "*first start* " : "")
          .append(where).append(": `").append(step.command()).append("` — ").append(step.why())
          .append('\n');
    }
    r.append('\n');
  }
}

package org.fawnpack.configs;

import java.util.Map;
import java.util.TreeMap;

/** The README written next to a rendered cluster: what is where, how to push it and restart. */
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
        .append("`. Do not edit these files: change the inventory or a profile and render"
        + " again.\n\n");
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
        .append(plan.masterProfile().name()).append("`\n\n");
    r.append("Each directory `<host>/` is that host's `HADOOP_CONF_DIR`. Every property has a"
        + " `<description>` saying why it has its value.\n\n");
    r.append("## Check\n\n```sh\n./fawn profile validate <this directory>\n```\n\n");
    r.append("## Push\n\nFrom this directory, to every host's `").append(conf)
        .append("`:\n\n```sh\nfor h in ").append(master).append(" $(cat workers); do\n")
        .append("  rsync -av --chmod=Du=rwx,Dgo=rx,Fu=rw,Fgo=r \"$h/\" \"$h:").append(conf)
        .append("/\"\ndone\n```\n\n");
    r.append("Copy `fawn-energy-collector-aux.jar` to `").append(inv.energyJar())
        .append("` on every host first (docs/energy.md).\n\n");
    r.append("## Restart\n\nOn the master:\n\n```sh\n")
        .append("hdfs --daemon stop namenode; hdfs --daemon start namenode\n")
        .append("yarn --daemon stop resourcemanager; yarn --daemon start resourcemanager\n")
        .append("mapred --daemon stop historyserver; mapred --daemon start historyserver\n")
        .append("# once per cluster: the label the master's NodeManager reports\n")
        .append("yarn rmadmin -addToClusterNodeLabels \"master(exclusive=true)\"\n")
        .append("yarn --daemon stop nodemanager; yarn --daemon start nodemanager\n```\n\n")
        .append("On every slave (`workers`):\n\n```sh\n")
        .append("hdfs --daemon stop datanode; hdfs --daemon start datanode\n")
        .append("yarn --daemon stop nodemanager; yarn --daemon start nodemanager\n```\n\n")
        .append("Then `yarn node -list -showDetails` shows each NodeManager's memory and vcores,"
        + " and the master's with label `master`.\n");
    return r.toString();
  }
}

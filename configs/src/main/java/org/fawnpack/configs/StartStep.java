package org.fawnpack.configs;

/**
 * The order a rendered cluster starts in, on a fresh cluster and on a restart: HDFS first (the
 * JobHistory server and every job need it), then YARN. The rendered README lists these steps
 * and the real-daemon test runs them in this order.
 */
public enum StartStep {
  FORMAT_NAMENODE(Where.MASTER, true, "hdfs namenode -format -nonInteractive",
      "creates the NameNode's metadata in dfs.namenode.name.dir"),
  NAMENODE(Where.MASTER, false, "hdfs --daemon start namenode", "the NameNode"),
  DATANODES(Where.WORKERS, false, "hdfs --daemon start datanode", "a DataNode on every slave"),
  HDFS_WRITABLE(Where.MASTER, false, "hdfs dfsadmin -safemode wait",
      "returns once a DataNode has registered and the NameNode left safe mode"
      + " (dfs.namenode.safemode.min.datanodes=1): HDFS takes writes; while the NameNode is still"
      + " starting it fails with 'Connection refused': run it again"),
  RESOURCEMANAGER(Where.MASTER, false, "yarn --daemon start resourcemanager",
      "the ResourceManager (its node-label store is on the master's disk)"),
  NODE_LABEL(Where.MASTER, true,
      "yarn rmadmin -addToClusterNodeLabels \"" + ClusterRenderer.MASTER_LABEL
      + "(exclusive=true)\"", "the label the master's NodeManager reports"
      + " (the ResourceManager keeps it in its label store); run it again while the"
      + " ResourceManager is still starting"),
  HISTORYSERVER(Where.MASTER, false, "mapred --daemon start historyserver",
      "the JobHistory server (it writes to HDFS)"),
  MASTER_NODEMANAGER(Where.MASTER, false, "yarn --daemon start nodemanager",
      "the master's NodeManager, labelled " + ClusterRenderer.MASTER_LABEL + ": it runs the AMs"),
  NODEMANAGERS(Where.WORKERS, false, "yarn --daemon start nodemanager",
      "a NodeManager on every slave");

  /** Where a step runs. */
  public enum Where { MASTER, WORKERS }

  private final Where where;
  private final boolean firstStartOnly;
  private final String command;
  private final String why;

  StartStep(Where where, boolean firstStartOnly, String command, String why) {
    this.where = where;
    this.firstStartOnly = firstStartOnly;
    this.command = command;
    this.why = why;
  }

  public Where where() {
    return where;
  }

  /** Whether only a fresh cluster needs this step. */
  public boolean firstStartOnly() {
    return firstStartOnly;
  }

  /** The command, as Hadoop's scripts take it. */
  public String command() {
    return command;
  }

  public String why() {
    return why;
  }
}

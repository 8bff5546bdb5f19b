package org.fawnpack.configs;

/**
 * The fixed ports a rendered cluster uses. Hadoop's own defaults where it has a fixed one; a fixed
 * port where Hadoop's default is ephemeral but a restart must find the same address again
 * (NodeManager recovery: containers and the ResourceManager keep talking to the NodeManager's
 * old address; tasks keep asking the energy collector on its old port).
 */
final class HadoopPorts {
  /** Hadoop's NameNode RPC port (fs.defaultFS). */
  static final int NAMENODE = 8020;
  /** Hadoop's NameNode web UI port. */
  static final int NAMENODE_HTTP = 9870;
  /** The NodeManager's container-manager port; Hadoop's default is 0 (ephemeral). */
  static final int NODEMANAGER = 45454;
  /** The JobHistory server's RPC and web ports (Hadoop's defaults). */
  static final int JOBHISTORY = 10020;
  static final int JOBHISTORY_HTTP = 19888;
  /** The energy collector's loopback query port; its own default is 0 (ephemeral). */
  static final int ENERGY_COLLECTOR = 13564;

  private HadoopPorts() {}
}

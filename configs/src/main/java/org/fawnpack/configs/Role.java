package org.fawnpack.configs;

import java.util.Locale;

/** What a node does in a cluster. */
public enum Role {
  /** NameNode, ResourceManager, JobHistory server, and a NodeManager that runs only AMs. */
  MASTER,
  /** DataNode and NodeManager running map and reduce tasks. */
  SLAVE;

  public String yamlName() {
    return name().toLowerCase(Locale.ROOT);
  }
}

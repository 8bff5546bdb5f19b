package org.fawnpack.kv.zookeeper;

/**
 * Where a FAWN-KV cluster keeps its state in ZooKeeper, under {@code /fawn-kv/<cluster>}:
 * {@code ring-key} (the placement key, made once), {@code ring} (the current epoch, changed
 * only by compare-and-set), {@code backends/<id>} (one ephemeral node per live back-end) and
 * {@code coordinator} (the front-ends' leader election) and {@code copied/<id>} (ephemeral: the
 * epoch in which a back-end last held every arc it was copying); {@code slices} (which
 * front-end serves which keys), {@code frontends/<name>} (ephemeral, one per live front-end)
 * and {@code slice-coordinator} (the election of the one that changes {@code slices}).
 */
public record ClusterPaths(String cluster) {

  public ClusterPaths {
    if (cluster == null || !cluster.matches("[A-Za-z0-9_.-]+")) {
      throw new IllegalArgumentException("a cluster name is letters, digits, '_', '.', '-': "
          + cluster);
    }
  }

  public String root() {
    return "/fawn-kv/" + cluster;
  }

  public String ringKey() {
    return root() + "/ring-key";
  }

  public String ring() {
    return root() + "/ring";
  }

  public String backends() {
    return root() + "/backends";
  }

  public String backend(String id) {
    return backends() + "/" + id;
  }

  public String copies() {
    return root() + "/copied";
  }

  public String copied(String id) {
    return copies() + "/" + id;
  }

  /** Persistent marks of back-ends that stopped cleanly and may be back soon. */
  public String stopped() {
    return root() + "/stopped";
  }

  public String stopped(String id) {
    return stopped() + "/" + id;
  }

  /** Persistent requests of back-ends to leave (./fawn kv leave), one child per back-end. */
  public String leaves() {
    return root() + "/leave";
  }

  public String leave(String id) {
    return leaves() + "/" + id;
  }

  /**
   * Persistent requests to remove down back-ends for good (./fawn kv remove, or down longer
   * than fawn.kv.down-grace), one child per back-end.
   */
  public String removals() {
    return root() + "/remove";
  }

  public String removal(String id) {
    return removals() + "/" + id;
  }

  /** Back-ends' reports of the orphaned arcs' files they hold (ephemeral, per run). */
  public String recoveries() {
    return root() + "/recovery";
  }

  public String recovery(String id) {
    return recoveries() + "/" + id;
  }

  /** Arcs an operator declared lost ({@code LostArcs}), by end. */
  public String lostArcs() {
    return root() + "/lost";
  }

  /**
   * Bulk loads by attached files, one child per job: ephemeral while its files are staged
   * (its driver's session), persistent once committed (the commit point), gone when done.
   */
  public String bulkLoads() {
    return root() + "/bulkloads";
  }

  public String bulkLoad(String job) {
    return bulkLoads() + "/" + job;
  }

  public String coordinator() {
    return root() + "/coordinator";
  }

  public String slices() {
    return root() + "/slices";
  }

  public String frontEnds() {
    return root() + "/frontends";
  }

  public String frontEnd(String name) {
    return frontEnds() + "/" + name;
  }

  public String sliceCoordinator() {
    return root() + "/slice-coordinator";
  }
}

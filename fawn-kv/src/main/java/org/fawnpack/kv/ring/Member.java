package org.fawnpack.kv.ring;

/**
 * A back-end in the ring: its id (stable across restarts, names its virtual nodes), the host it
 * runs on (no chain holds two members on one host) and the address it serves on.
 */
public record Member(String id, String host, int port) {

  public Member {
    if (id == null || id.isBlank() || id.contains("#") || id.contains("/")) {
      throw new IllegalArgumentException("a back-end id must be non-blank without '#' or '/': "
          + id);
    }
    if (host == null || host.isBlank()) {
      throw new IllegalArgumentException("back-end " + id + " has no host");
    }
    if (port < 1 || port > 65_535) {
      throw new IllegalArgumentException("back-end " + id + ": port " + port
          + " is not in 1..65535");
    }
  }

  @Override
  public String toString() {
    return id + "@" + host + ":" + port;
  }
}

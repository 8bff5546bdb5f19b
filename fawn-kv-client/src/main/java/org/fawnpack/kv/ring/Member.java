package org.fawnpack.kv.ring;

/**
 * A back-end in the ring: its id (stable across restarts, names its virtual nodes), the host it
 * runs on, the address it serves on, and its failure domain: what it shares a fate with, such
 * as a box of boards on one supply and one switch. Chains never hold two members on one host
 * and, while there are enough domains, none on one domain. A member named with no domain is
 * its own host's domain, so a ring without domains is placed by host alone.
 */
public record Member(String id, String host, int port, String domain) {

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
    if (domain == null) {
      domain = host;
    }
    if (!validDomain(domain)) {
      throw new IllegalArgumentException("back-end " + id + ": failure domain '" + domain
          + "' must be non-blank without spaces or '='");
    }
  }

  /** A member whose host is its failure domain. */
  public Member(String id, String host, int port) {
    this(id, host, port, null);
  }

  /** Whether {@code domain} can name a failure domain (one word of the ring's text form). */
  public static boolean validDomain(String domain) {
    return !domain.isBlank() && domain.chars().noneMatch(c -> Character.isWhitespace(c)
        || c == '=');
  }

  /** Whether a domain other than its host was given. */
  public boolean hasOwnDomain() {
    return !domain.equals(host);
  }

  /** The same back-end at another port. */
  public Member atPort(int newPort) {
    return new Member(id, host, newPort, domain);
  }

  @Override
  public String toString() {
    return id + "@" + host + ":" + port; // logs and messages name members so; domains aside
  }
}

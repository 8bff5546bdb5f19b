package org.fawnpack.kv.slice;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which front-end serves which keys: the key space is cut into {@link #BUCKETS} buckets by a
 * seeded hash of the key (not the ring's position, which clients cannot compute), and each
 * bucket belongs to one front-end by rendezvous hashing over the front-ends' names, so a
 * front-end that comes or goes moves only its share of buckets. Every read and write of a key
 * passes its owner, which is what lets that owner cache the key.
 *
 * <p>A map is either <em>settled</em> or a <em>handover</em> from the {@code previous}
 * front-ends to {@code owners}. In a handover a bucket whose owner changes is served by nobody
 * ({@link #servable}): its new owner waits until every previous owner still alive has said it
 * no longer serves it, which the coordinator marks by publishing the next, settled, epoch. So
 * two front-ends never serve one key at once, and no cache can miss a write.
 */
public final class SliceMap {
  /** Buckets of the key space: enough that a dozen front-ends get even shares. */
  public static final int BUCKETS = 1024;

  /** A front-end's name and where clients reach it. */
  public record Endpoint(String name, String host, int port) {
    public Endpoint {
      if (name == null || !name.matches("[A-Za-z0-9_.-]+")) {
        throw new IllegalArgumentException("a front-end name is letters, digits, '_', '.', '-': "
            + name);
      }
      if (host == null || host.isBlank() || host.contains(" ")) {
        throw new IllegalArgumentException("front-end " + name + " has no host: " + host);
      }
      if (port < 1 || port > 65_535) {
        throw new IllegalArgumentException("front-end " + name + " has port " + port
            + ", not 1 to 65535");
      }
    }

    @Override
    public String toString() {
      return name + "@" + host + ":" + port;
    }
  }

  private final long epoch;
  private final long seed;
  private final List<Endpoint> owners;
  private final List<String> previous;
  private final Endpoint[] ownerOf = new Endpoint[BUCKETS];
  private final boolean[] moving = new boolean[BUCKETS];

  /**
   * {@code previous}: the front-end names of the handover's start, or empty when settled;
   * {@code owners} must not be empty, names unique.
   */
  public SliceMap(long epoch, long seed, List<Endpoint> owners, List<String> previous) {
    if (epoch < 1) {
      throw new IllegalArgumentException("a slice epoch is at least 1: " + epoch);
    }
    if (owners.isEmpty()) {
      throw new IllegalArgumentException("slice epoch " + epoch + " names no front-end");
    }
    List<Endpoint> sorted = new ArrayList<>(owners);
    sorted.sort(Comparator.comparing(Endpoint::name));
    Set<String> names = new TreeSet<>();
    for (Endpoint e : sorted) {
      if (!names.add(e.name())) {
        throw new IllegalArgumentException("slice epoch " + epoch + " names front-end "
            + e.name() + " twice");
      }
    }
    this.epoch = epoch;
    this.seed = seed;
    this.owners = List.copyOf(sorted);
    this.previous = List.copyOf(new TreeSet<>(previous));
    for (int b = 0; b < BUCKETS; b++) {
      ownerOf[b] = rendezvous(b, this.owners, Endpoint::name);
      moving[b] = !this.previous.isEmpty()
          && !rendezvous(b, this.previous, n -> n).equals(ownerOf[b].name());
    }
  }

  /** The first map: {@code owners} serve at once (nobody served before). */
  public static SliceMap first(long seed, List<Endpoint> owners) {
    return new SliceMap(1, seed, owners, List.of());
  }

  /** The handover from this map's owners to {@code next} (addresses may change too). */
  public SliceMap handOverTo(List<Endpoint> next) {
    return new SliceMap(epoch + 1, seed, next, names());
  }

  /** The same owners, settled: every previous owner let go of what it lost. */
  public SliceMap settle() {
    return new SliceMap(epoch + 1, seed, owners, List.of());
  }

  public long epoch() {
    return epoch;
  }

  public long seed() {
    return seed;
  }

  public List<Endpoint> owners() {
    return owners;
  }

  /** The names of the front-ends that served before the handover; empty when settled. */
  public List<String> previous() {
    return previous;
  }

  public boolean settled() {
    return previous.isEmpty();
  }

  public List<String> names() {
    return owners.stream().map(Endpoint::name).toList();
  }

  public Endpoint endpoint(String name) {
    return owners.stream().filter(e -> e.name().equals(name)).findFirst().orElse(null);
  }

  /** The bucket of a user key. */
  public int bucketOf(byte[] key) {
    long h = 0xcbf29ce484222325L; // FNV-1a, then mixed with the seed
    for (byte b : key) {
      h = (h ^ (b & 0xff)) * 0x100000001b3L;
    }
    return (int) (mix(h ^ seed) >>> (64 - Integer.numberOfTrailingZeros(BUCKETS)));
  }

  public Endpoint ownerOf(int bucket) {
    return ownerOf[bucket];
  }

  public Endpoint ownerOf(byte[] key) {
    return ownerOf[bucketOf(key)];
  }

  /** Whether {@code bucket}'s owner may serve it now: false while it moves in a handover. */
  public boolean servable(int bucket) {
    return !moving[bucket];
  }

  /** Whether {@code name} served {@code bucket} under the handover's previous front-ends. */
  public boolean servedBefore(String name, int bucket) {
    return !previous.isEmpty() && rendezvous(bucket, previous, n -> n).equals(name);
  }

  private <T> T rendezvous(int bucket, List<T> candidates,
      java.util.function.Function<T, String> nameOf) {
    T best = null;
    long bestScore = 0;
    for (T c : candidates) {
      long score = mix(seed ^ nameHash(nameOf.apply(c)) ^ (bucket * 0x9e3779b97f4a7c15L));
      if (best == null || Long.compareUnsigned(score, bestScore) > 0) {
        best = c;
        bestScore = score;
      }
    }
    return best;
  }

  private static long nameHash(String name) {
    long h = 0xcbf29ce484222325L;
    for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
      h = (h ^ (b & 0xff)) * 0x100000001b3L;
    }
    return h;
  }

  /** SplitMix64's finalizer: spreads every input bit over the output. */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SliceMap m && m.epoch == epoch && m.seed == seed
        && m.owners.equals(owners) && m.previous.equals(previous);
  }

  @Override
  public int hashCode() {
    return Objects.hash(epoch, seed, owners, previous);
  }

  @Override
  public String toString() {
    return "slice epoch " + epoch + " " + owners
        + (settled() ? "" : " (handover from " + previous + ")");
  }
}

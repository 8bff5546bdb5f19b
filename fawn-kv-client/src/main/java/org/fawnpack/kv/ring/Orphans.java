package org.fawnpack.kv.ring;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Arcs whose every serving member went down (a whole cluster's power cut, say), and the arcs
 * being recovered from one member's own file. An <em>orphaned</em> arc remembers the members
 * of its last chain that served, head first: between them they hold every write its tail
 * acknowledged, and their files are prefixes of one history, so the longest of them is the
 * arc's data. Once each has reported, the coordinator names the one with the most writes the
 * arc's <em>source</em> ({@link Ring#withRecovered}): it alone serves the arc, from its own
 * file, while the members of the arc's walk copy it afresh; when they serve, the arc is an
 * ordinary arc again. Members of older chains are never asked: a write they hold under a
 * number may differ from the one the last chain committed under that number. Immutable.
 */
public record Orphans(Map<Long, List<String>> lastChains, Map<Long, String> sources,
    java.util.Set<Long> lost) {
  public static final Orphans NONE = new Orphans(Map.of(), Map.of());

  public Orphans {
    Map<Long, List<String>> chains = new TreeMap<>(Long::compareUnsigned);
    lastChains.forEach((end, ids) -> chains.put(end, List.copyOf(ids)));
    lastChains = java.util.Collections.unmodifiableMap(chains);
    Map<Long, String> from = new TreeMap<>(Long::compareUnsigned);
    from.putAll(sources);
    sources = java.util.Collections.unmodifiableMap(from);
    java.util.Set<Long> gone = new java.util.TreeSet<>(Long::compareUnsigned);
    gone.addAll(lost);
    lost = java.util.Collections.unmodifiableSet(gone);
    for (Long end : sources.keySet()) {
      if (lastChains.containsKey(end)) {
        throw new IllegalArgumentException("arc " + Long.toHexString(end) + " is both orphaned"
            + " and recovered");
      }
    }
    for (Long end : lost) {
      if (lastChains.containsKey(end) || sources.containsKey(end)) {
        throw new IllegalArgumentException("arc " + Long.toHexString(end) + " is lost, and "
            + (sources.containsKey(end) ? "recovered" : "orphaned") + " too");
      }
    }
  }

  /** No arc lost. */
  public Orphans(Map<Long, List<String>> lastChains, Map<Long, String> sources) {
    this(lastChains, sources, java.util.Set.of());
  }

  /** No arc waits for or is in recovery (lost arcs, a state an operator chose, aside). */
  public boolean isEmpty() {
    return lastChains.isEmpty() && sources.isEmpty();
  }

  /**
   * {@code chain} as served: a recovered arc's source alone serves it, from its own file, and
   * the members of its walk copy it; a lost arc has no member and nobody copies it.
   */
  Chain served(Chain chain, Map<String, Member> members) {
    if (lost.contains(chain.range().endInclusive())) {
      return new Chain(chain.range(), List.of(), List.of(), chain.replicas(), chain.frozen());
    }
    String source = sources.get(chain.range().endInclusive());
    if (source == null) {
      return chain;
    }
    List<Member> copying = new java.util.ArrayList<>(chain.members());
    copying.addAll(chain.pending());
    copying.remove(members.get(source));
    return new Chain(chain.range(), List.of(members.get(source)), copying, chain.replicas(),
        chain.frozen());
  }

  /** Whether {@code id} is the source some arc is recovered from. */
  public boolean isSource(String id) {
    return sources.containsValue(id);
  }

  /**
   * The orphans once the ring's placement is {@code after} (chains before: {@code before}): an
   * arc whose chain keeps no serving member is orphaned with the members of its last chain that
   * served (kept from before when it was orphaned already); a recovery goes on while its source
   * is live.
   */
  Orphans after(java.util.function.LongFunction<Chain> before, Placement after,
      Map<String, java.util.Set<Long>> nextPending, java.util.Set<String> nextDown) {
    Map<Long, List<String>> orphaned = new TreeMap<>();
    Map<Long, String> recovering = new TreeMap<>();
    java.util.Set<Long> stillLost = new java.util.HashSet<>();
    for (int i = 0; i < after.arcs(); i++) {
      long end = after.end(i);
      if (lost.contains(end)) {
        stillLost.add(end);
        continue;
      }
      String source = sources.get(end);
      if (source != null && !nextDown.contains(source)) {
        recovering.put(end, source);
        continue;
      }
      if (after.chain(i, nextPending, java.util.Set.of()).isEmpty()) {
        List<String> last = lastChains.containsKey(end) ? lastChains.get(end)
            : before.apply(end).members().stream().map(Member::id).toList();
        if (!last.isEmpty()) {
          orphaned.put(end, last);
        }
      }
    }
    return new Orphans(orphaned, recovering, stillLost);
  }

  /**
   * These orphans with the orphaned arcs {@code ends} lost: an operator said every copy is
   * gone for good, so their requests fail by name and nobody waits to copy them.
   */
  Orphans withLost(java.util.Collection<Long> ends, long epoch) {
    Map<Long, List<String>> orphaned = new TreeMap<>(lastChains);
    java.util.Set<Long> nowLost = new java.util.HashSet<>(lost);
    for (long end : ends) {
      if (orphaned.remove(end) == null) {
        throw new IllegalArgumentException("arc " + Long.toHexString(end) + " is not an arc"
            + " waiting for its members (epoch " + epoch + "): only such an arc can be lost");
      }
      nowLost.add(end);
    }
    return new Orphans(orphaned, sources, nowLost);
  }

  /**
   * These orphans with the arcs of {@code chosen} (arc end to member id) recovered from those
   * members' files; {@code nextPending} is filled with {@code pending} less each source's own
   * arc (it serves its file there).
   */
  Orphans recovered(Map<Long, String> chosen, java.util.Set<String> down,
      Map<String, java.util.Set<Long>> pending, Map<String, java.util.Set<Long>> nextPending,
      long epoch) {
    Map<Long, List<String>> orphaned = new TreeMap<>(lastChains);
    Map<Long, String> recovering = new TreeMap<>(sources);
    pending.forEach((id, arcs) -> nextPending.put(id, new java.util.HashSet<>(arcs)));
    chosen.forEach((end, id) -> {
      List<String> last = orphaned.remove(end);
      if (last == null || !last.contains(id) || down.contains(id)) {
        throw new IllegalArgumentException("arc " + Long.toHexString(end) + " cannot be"
            + " recovered from " + id + ": " + (last == null ? "it is not orphaned"
                : "its last chain was " + last + (down.contains(id) ? " and " + id
                    + " is down" : "")) + " (epoch " + epoch + ")");
      }
      recovering.put(end, id);
      java.util.Set<Long> copying = nextPending.get(id);
      if (copying != null) {
        copying.remove(end);
      }
    });
    return new Orphans(orphaned, recovering, lost);
  }

  /** After copiers were promoted: a recovered arc nobody copies any more is ordinary again. */
  Orphans copiersDone(Map<String, java.util.Set<Long>> stillPending) {
    Map<Long, String> recovering = new TreeMap<>(sources);
    recovering.keySet().removeIf(end -> stillPending.values().stream()
        .noneMatch(arcs -> arcs.contains(end)));
    return new Orphans(lastChains, recovering, lost);
  }
}

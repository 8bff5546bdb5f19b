/**
 * The ring: where keys live. {@link org.fawnpack.kv.ring.Ring} is one epoch; the states its
 * members go through are described here once.
 *
 * <p>A virtual node owns the arc from its predecessor (exclusive) to itself (inclusive), the
 * successor rule of Chord and FAWN. The arc's chain is its owner followed by the next virtual
 * nodes clockwise, skipping any whose host is already in the chain (FAWN's footnote 3, made a
 * rule: a chain never has two members on one host, so losing one machine costs a chain at most
 * one replica). Members may name a failure domain (a box on one supply): the walk then skips
 * a domain already in the chain as well, and fills a chain that is still short (fewer domains
 * than replicas) from new hosts, so losing one box costs a chain at most one replica while
 * there are enough boxes. A member without a domain is its host's own.
 *
 * <p>A member may be <em>down</em>: its ZooKeeper session ended, so the coordinator marked it in
 * the next epoch. A down member keeps its virtual nodes, so the arcs do not move, and keeps its
 * host out of the chains it was in; chains leave it out and take the next live member on a new
 * host instead. That replacement always comes after the chain's other members (the walk's
 * sequence of first-seen hosts does not depend on who is down), so each chain is its surviving
 * members in their old order, then the replacements. A replacement is <em>pending</em> on an
 * arc until it has copied the arc's file; meanwhile the chain serves reads from its old members
 * and, being short, takes no writes (chain replication's repair: shrink, then extend). A down
 * member that comes back takes its old place in the walk the same way: pending until it has
 * copied each arc, displacing the replacements that stood in for it.
 *
 * <p>A new back-end joins in three epochs. First it is <em>joining</em>: not yet a member, but
 * every arc its virtual nodes will split or whose chain it will enter is <em>frozen</em> (takes
 * no writes), so the writes already taken can settle on every member. Then it is a member: the
 * frozen arcs are split at its virtual nodes (each member splits its own file), it is pending
 * on the arcs it belongs to, and the members it displaces leave them. Then, its copies made, it
 * serves (as any copier).
 *
 * <p>A member that leaves by plan is first <em>leaving</em>: walks pass it by as if it were
 * down, so each of its chains names the replacement a failure would, pending after the
 * chain's tail; but it keeps serving in its chains meanwhile, so they stay full and take
 * writes. Once the replacements hold their copies and serve (the chain is one longer for an
 * epoch), the leaver is marked down ({@link org.fawnpack.kv.ring.Ring#withLeft}) and its
 * chains close up around it.
 *
 * <p>A down member that will not return is removed for good in two epochs, the reverse of a
 * join. First it is <em>removing</em>: the arcs its virtual nodes bound and the arcs that will
 * take them in are frozen so that their writes settle. Then its virtual nodes are gone
 * ({@link org.fawnpack.kv.ring.Ring#withRemoved}): each arc it bounded is part of its
 * successor's, a member of the merged arc's chain that served every arc merged into it serves
 * it at once (it merges its own files), and any other is pending there. The arithmetic of
 * these steps is in {@code MembershipChanges} and {@code Removals}.
 *
 * <p>An arc all of whose serving members are down (a power cut) is <em>orphaned</em>: its last
 * serving chain is recorded ({@link org.fawnpack.kv.ring.Orphans}) until the coordinator names
 * one of those members its <em>source</em>; the source alone serves the arc from its own file
 * while the live members of the arc's walk, pending there, copy it, and once they serve the
 * arc's chain is its walk again.
 */
package org.fawnpack.kv.ring;

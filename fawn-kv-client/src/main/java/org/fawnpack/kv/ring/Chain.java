package org.fawnpack.kv.ring;

import java.util.List;
import org.fawnpack.kv.store.KeyRange;

/**
 * The replica chain of one key range: the members that serve it, head first (takes writes,
 * assigns sequence numbers), tail last (commits, answers puts, serves gets). {@code range} is
 * the arc of the virtual node that owns it (the arc ends at that node), so one chain is one
 * FAWN-DS file on each member.
 *
 * <p>{@code pending} are members that will follow the tail once they hold the arc: each is
 * copying the tail's file (chain extension after a member went down). They serve nothing yet;
 * the tail keeps every write it takes meanwhile in its sent list, for the first of them.
 * {@code frozen}: a back-end is joining and will split this arc or enter its chain, so the arc
 * takes no writes until the join's next epoch.
 */
public record Chain(KeyRange range, List<Member> members, List<Member> pending, int replicas,
    boolean frozen) {

  public Chain {
    members = List.copyOf(members);
    pending = List.copyOf(pending);
  }

  /** A chain not frozen by a join. */
  public Chain(KeyRange range, List<Member> members, List<Member> pending, int replicas) {
    this(range, members, pending, replicas, false);
  }

  /** A chain with no member catching up. */
  public Chain(KeyRange range, List<Member> members, int replicas) {
    this(range, members, List.of(), replicas);
  }

  /** Writes are taken: the chain is neither short nor frozen by a join under way. */
  public boolean takesWrites() {
    return !isShort() && !frozen;
  }

  /** The first member catching up (the tail's successor-to-be), or null. */
  public Member nextPending() {
    return pending.isEmpty() ? null : pending.get(0);
  }

  /** The first live member; fails when every member is down ({@link #isEmpty}). */
  public Member head() {
    requireMembers();
    return members.get(0);
  }

  /** The last live member; fails when every member is down ({@link #isEmpty}). */
  public Member tail() {
    requireMembers();
    return members.get(members.size() - 1);
  }

  /** Every member of the chain is down: the arc can be neither read nor written. */
  public boolean isEmpty() {
    return members.isEmpty();
  }

  /** The member after {@code member}, or null when it is the tail or not in the chain. */
  public Member successorOf(Member member) {
    int at = members.indexOf(member);
    return at < 0 || at == members.size() - 1 ? null : members.get(at + 1);
  }

  private void requireMembers() {
    if (members.isEmpty()) {
      throw new IllegalStateException("every member of the chain of " + range + " is down");
    }
  }

  /**
   * Fewer serving members than replicas (too few hosts, members down, replacements still
   * copying): writes must fail rather than be acknowledged short.
   */
  public boolean isShort() {
    return members.size() < replicas;
  }
}

package org.fawnpack.kv.ring;

import java.util.List;
import org.fawnpack.kv.store.KeyRange;

/**
 * The replica chain of one key range: the members that store it, head first (takes writes,
 * assigns sequence numbers), tail last (commits, answers puts, serves gets). {@code range} is
 * the arc of the virtual node that owns it (the arc ends at that node), so one chain is one
 * FAWN-DS file on each member.
 */
public record Chain(KeyRange range, List<Member> members, int replicas) {

  public Chain {
    members = List.copyOf(members);
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
   * Fewer live members than replicas (too few hosts, or members down): writes must fail rather
   * than be acknowledged short.
   */
  public boolean isShort() {
    return members.size() < replicas;
  }
}

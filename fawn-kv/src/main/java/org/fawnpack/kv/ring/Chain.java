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

  public Member head() {
    return members.get(0);
  }

  public Member tail() {
    return members.get(members.size() - 1);
  }

  /** Fewer distinct hosts than replicas: writes must fail rather than be acknowledged short. */
  public boolean isShort() {
    return members.size() < replicas;
  }
}

package org.fawnpack.kv.check;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Whether one key's history is linearizable: some order of its operations, each placed between
 * its invocation and its answer, that a single register (value or absent) would have produced.
 * Wing and Gong's search with Lowe's memo of (operations linearized, register state) seen
 * before, as Porcupine and Knossos do it. Operations refused with a definite failure are left
 * out; an indeterminate one may be placed anywhere after its invocation, or nowhere.
 *
 * <p>Histories are checked key by key (a register per key is what FAWN-KV promises), which
 * keeps each search small. The search gives up after {@code maxSteps} and says so, rather than
 * run without end on a history too concurrent to decide.
 */
public final class LinearizabilityChecker {

  public enum Verdict { LINEARIZABLE, NOT_LINEARIZABLE, UNDECIDED }

  private final long maxSteps;

  public LinearizabilityChecker(long maxSteps) {
    this.maxSteps = maxSteps;
  }

  /** One event of the history: an operation's call or its return, in a doubly linked list. */
  private static final class Entry {
    final int op;
    final boolean call;
    final long time;
    Entry match;
    Entry prev;
    Entry next;

    Entry(int op, boolean call, long time) {
      this.op = op;
      this.call = call;
      this.time = time;
    }
  }

  private record Memo(BitSet linearized, ByteBuffer state) {}

  public Verdict check(List<Op> history, byte[] initial) {
    List<Op> ops = history.stream().filter(o -> o.outcome() != Op.Outcome.FAILED).toList();
    Entry head = events(ops);
    int mustPlace = (int) ops.stream().filter(o -> o.outcome() == Op.Outcome.OK).count();
    BitSet linearized = new BitSet();
    Set<Memo> seen = new HashSet<>();
    Deque<Entry> calls = new ArrayDeque<>();
    // A stack of states; an absent value is null, which an ArrayDeque refuses.
    List<byte[]> states = new ArrayList<>();
    byte[] state = initial;
    int placedDefinite = 0;
    Entry entry = head.next;
    for (long steps = 0; ; steps++) {
      if (placedDefinite == mustPlace) {
        return Verdict.LINEARIZABLE; // what is left is indeterminate: it may never have happened
      }
      if (steps > maxSteps) {
        return Verdict.UNDECIDED;
      }
      if (entry != null && entry.call) {
        byte[] next = ops.get(entry.op).step(state);
        boolean placed = false;
        if (next != Op.REFUSED) {
          BitSet with = (BitSet) linearized.clone();
          with.set(entry.op);
          if (seen.add(new Memo(with, key(next)))) {
            calls.push(entry);
            states.add(state);
            linearized = with;
            state = next;
            placedDefinite += ops.get(entry.op).outcome() == Op.Outcome.OK ? 1 : 0;
            lift(entry);
            entry = head.next;
            placed = true;
          }
        }
        if (!placed) {
          entry = entry.next;
        }
      } else {
        // A return (or the end) reached before its call was placed: undo the last placement.
        if (calls.isEmpty()) {
          return Verdict.NOT_LINEARIZABLE;
        }
        Entry undone = calls.pop();
        state = states.remove(states.size() - 1);
        linearized = (BitSet) linearized.clone();
        linearized.clear(undone.op);
        placedDefinite -= ops.get(undone.op).outcome() == Op.Outcome.OK ? 1 : 0;
        unlift(undone);
        entry = undone.next;
      }
    }
  }

  private static ByteBuffer key(byte[] state) {
    return state == null ? null : ByteBuffer.wrap(state);
  }

  /** Calls and returns in time order (a call before a return at the same instant). */
  private static Entry events(List<Op> ops) {
    List<Entry> all = new ArrayList<>();
    for (int i = 0; i < ops.size(); i++) {
      Op op = ops.get(i);
      Entry call = new Entry(i, true, op.invokedAt());
      Entry ret = new Entry(i, false, op.outcome() == Op.Outcome.INDETERMINATE
          ? Long.MAX_VALUE : op.answeredAt());
      call.match = ret;
      ret.match = call;
      all.add(call);
      all.add(ret);
    }
    all.sort(Comparator.comparingLong((Entry e) -> e.time).thenComparing(e -> !e.call));
    Entry head = new Entry(-1, false, Long.MIN_VALUE);
    Entry last = head;
    for (Entry e : all) {
      last.next = e;
      e.prev = last;
      last = e;
    }
    return head;
  }

  /** Takes an operation's call and return out of the list. */
  private static void lift(Entry call) {
    call.prev.next = call.next;
    if (call.next != null) {
      call.next.prev = call.prev;
    }
    Entry ret = call.match;
    ret.prev.next = ret.next;
    if (ret.next != null) {
      ret.next.prev = ret.prev;
    }
  }

  /** Puts them back (the reverse of {@link #lift}). */
  private static void unlift(Entry call) {
    Entry ret = call.match;
    ret.prev.next = ret;
    if (ret.next != null) {
      ret.next.prev = ret;
    }
    call.prev.next = call;
    if (call.next != null) {
      call.next.prev = call;
    }
  }
}

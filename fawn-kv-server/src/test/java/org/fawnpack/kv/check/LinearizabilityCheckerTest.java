package org.fawnpack.kv.check;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.fawnpack.kv.check.LinearizabilityChecker.Verdict;
import org.junit.jupiter.api.Test;

/**
 * The checker against a brute force that tries every order of every subset of indeterminate
 * operations, on many small random histories (linearizable ones and broken ones), and on
 * hand-made classics.
 */
class LinearizabilityCheckerTest {
  private static final LinearizabilityChecker CHECKER = new LinearizabilityChecker(1_000_000);

  private static byte[] v(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void check_classicHistories_verdictsAsExpected() {
    // put(a) finishes, then a get that overlaps nothing reads a: fine; reads null: stale.
    List<Op> fresh = List.of(Op.put(v("a"), 0, 10, Op.Outcome.OK), Op.get(v("a"), 20, 30));
    assertEquals(Verdict.LINEARIZABLE, CHECKER.check(fresh, null));
    List<Op> stale = List.of(Op.put(v("a"), 0, 10, Op.Outcome.OK), Op.get(null, 20, 30));
    assertEquals(Verdict.NOT_LINEARIZABLE, CHECKER.check(stale, null));
    // A get overlapping the put may read either.
    assertEquals(Verdict.LINEARIZABLE, CHECKER.check(List.of(
        Op.put(v("a"), 0, 10, Op.Outcome.OK), Op.get(null, 5, 30)), null));
    // Two reads that see the put take effect and then undo it: not linearizable.
    assertEquals(Verdict.NOT_LINEARIZABLE, CHECKER.check(List.of(
        Op.put(v("a"), 0, 100, Op.Outcome.OK), Op.get(v("a"), 10, 20),
        Op.get(null, 30, 40)), null));
    // An indeterminate put may have happened...
    assertEquals(Verdict.LINEARIZABLE, CHECKER.check(List.of(
        Op.put(v("a"), 0, 0, Op.Outcome.INDETERMINATE), Op.get(v("a"), 50, 60)), null));
    // ...or not.
    assertEquals(Verdict.LINEARIZABLE, CHECKER.check(List.of(
        Op.put(v("a"), 0, 0, Op.Outcome.INDETERMINATE), Op.get(null, 50, 60)), null));
    // A failed put never happened.
    assertEquals(Verdict.NOT_LINEARIZABLE, CHECKER.check(List.of(
        Op.put(v("a"), 0, 10, Op.Outcome.FAILED), Op.get(v("a"), 50, 60)), null));
    // A delete that found nothing after a finished put: not linearizable.
    assertEquals(Verdict.NOT_LINEARIZABLE, CHECKER.check(List.of(
        Op.put(v("a"), 0, 10, Op.Outcome.OK), Op.delete(false, 20, 30, Op.Outcome.OK)), null));
  }

  @Test
  void check_randomSmallHistories_agreesWithBruteForce() {
    Random random = new Random(97);
    int linearizable = 0;
    for (int round = 0; round < 3_000; round++) {
      List<Op> history = randomHistory(random, 1 + random.nextInt(6));
      boolean expected = bruteForce(history);
      Verdict verdict = CHECKER.check(history, null);
      assertEquals(expected ? Verdict.LINEARIZABLE : Verdict.NOT_LINEARIZABLE, verdict,
          "round " + round + ": " + history);
      linearizable += expected ? 1 : 0;
    }
    // Both kinds occur often enough for the agreement to mean something.
    assertEquals(true, linearizable > 300 && linearizable < 2_700, "linearizable: " + linearizable);
  }

  /** Ops over a tiny value set with random overlapping intervals and random answers. */
  private static List<Op> randomHistory(Random random, int count) {
    List<Op> ops = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      long start = random.nextInt(20);
      long end = start + 1 + random.nextInt(10);
      byte[] value = random.nextInt(3) == 0 ? null : v("v" + random.nextInt(2));
      Op.Outcome outcome = switch (random.nextInt(8)) {
        case 0 -> Op.Outcome.INDETERMINATE;
        case 1 -> Op.Outcome.FAILED;
        default -> Op.Outcome.OK;
      };
      ops.add(switch (random.nextInt(3)) {
        case 0 -> Op.put(value == null ? v("v0") : value, start, end, outcome);
        case 1 -> Op.get(value, start, end);
        default -> Op.delete(random.nextBoolean(), start, end, outcome);
      });
    }
    return ops;
  }

  /** Every subset of the indeterminate ops, every order consistent with real time. */
  private static boolean bruteForce(List<Op> history) {
    List<Op> definite = new ArrayList<>();
    List<Op> maybe = new ArrayList<>();
    for (Op op : history) {
      if (op.outcome() == Op.Outcome.OK) {
        definite.add(op);
      } else if (op.outcome() == Op.Outcome.INDETERMINATE) {
        maybe.add(op);
      }
    }
    for (int mask = 0; mask < 1 << maybe.size(); mask++) {
      List<Op> chosen = new ArrayList<>(definite);
      for (int i = 0; i < maybe.size(); i++) {
        if ((mask & 1 << i) != 0) {
          chosen.add(maybe.get(i));
        }
      }
      if (anyOrder(chosen, new boolean[chosen.size()], 0, null)) {
        return true;
      }
    }
    return false;
  }

  private static boolean anyOrder(List<Op> ops, boolean[] used, int placed, byte[] state) {
    if (placed == ops.size()) {
      return true;
    }
    for (int i = 0; i < ops.size(); i++) {
      if (used[i] || !mayGoNext(ops, used, i)) {
        continue;
      }
      Op op = ops.get(i);
      byte[] next = switch (op.kind()) {
        case PUT -> op.written();
        case GET -> Arrays.equals(op.read(), state) ? state : Op.REFUSED;
        case DELETE -> op.outcome() != Op.Outcome.OK || op.found() == (state != null) ? null
            : Op.REFUSED;
      };
      if (next == Op.REFUSED) {
        continue;
      }
      used[i] = true;
      if (anyOrder(ops, used, placed + 1, next)) {
        return true;
      }
      used[i] = false;
    }
    return false;
  }

  /** No unplaced op finished before op i began (indeterminate ops never finish). */
  private static boolean mayGoNext(List<Op> ops, boolean[] used, int i) {
    for (int j = 0; j < ops.size(); j++) {
      Op other = ops.get(j);
      if (!used[j] && j != i && other.outcome() == Op.Outcome.OK
          && other.answeredAt() < ops.get(i).invokedAt()) {
        return false;
      }
    }
    return true;
  }
}

package org.fawnpack.kv.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A crash loop: round after round on the same file, a child JVM ({@link CrashLoopChild}) puts,
 * overwrites and deletes 2,000 keys while compacting and reading, and is killed with SIGKILL
 * at a random moment; the store is reopened and checked against a model of the operations:
 * what it holds must be the state after some prefix of them, at least as long as the prefix
 * the child was told is durable. Every sync policy, with random write-buffer, interval and
 * writeback settings. (A process kill keeps what reached the page cache: power loss is not
 * simulated here.) A failure names the round's seed and settings.
 *
 * <p>About a minute with the default rounds; {@code -Dfawn.kv.crash.rounds=N} or the
 * {@code long} tag ({@code -P fawn-kv-long}) run longer.
 */
class CrashTest {

  private static final int KEYS = 2_000;
  /** How far past the acknowledged prefix the search for a matching prefix may go. */
  private static final long MAX_UNACKNOWLEDGED_OPS = 5_000_000;

  @TempDir
  Path dir;

  @ParameterizedTest
  @EnumSource(SyncPolicy.class)
  void kill9Loop_everyAcknowledgedWriteSurvives(SyncPolicy policy) throws Exception {
    crashLoop(policy, Integer.getInteger("fawn.kv.crash.rounds", 8), 1_000 + policy.ordinal());
  }

  @Tag("long")
  @ParameterizedTest
  @EnumSource(SyncPolicy.class)
  void kill9Loop_manyRounds(SyncPolicy policy) throws Exception {
    crashLoop(policy, 80, System.nanoTime());
  }

  private void crashLoop(SyncPolicy policy, int rounds, long seed) throws Exception {
    Path file = dir.resolve("loop-" + policy.key() + ".fds");
    Random random = new Random(seed);
    byte[][] state = new byte[KEYS][];
    for (int round = 0; round < rounds; round++) {
      long roundSeed = random.nextLong();
      int writeBuffer = 4096 << random.nextInt(9);
      long interval = 1 + random.nextInt(50);
      long writeback = random.nextBoolean() ? 0 : (1L << 20) << random.nextInt(4);
      long killAfterMillis = 50 + random.nextInt(1_450);
      String what = policy.key() + " round " + round + " (loop seed " + seed + ", round seed "
          + roundSeed + ", write buffer " + writeBuffer + ", interval " + interval
          + " ms, writeback " + writeback + ", killed after " + killAfterMillis + " ms)";
      long acked = runAndKill(file, policy, roundSeed, writeBuffer, interval, writeback,
          killAfterMillis, what);
      state = checkRecovered(file, state, new CrashOps(roundSeed, KEYS), acked, what);
    }
  }

  /** Runs one child round; returns how many leading operations it acknowledged durable. */
  private static long runAndKill(Path file, SyncPolicy policy, long seed, int writeBuffer,
      long interval, long writeback, long killAfterMillis, String what) throws Exception {
    long acked = 0;
    try (ChildJvm child = ChildJvm.start(CrashLoopChild.class, file.toString(), policy.name(),
        String.valueOf(seed), String.valueOf(KEYS), String.valueOf(writeBuffer),
        String.valueOf(interval), String.valueOf(writeback))) {
      assertTrue(child.awaitLine("started", 60_000), what + ": the child started");
      long killAt = System.nanoTime() + killAfterMillis * 1_000_000;
      String line;
      while ((line = child.nextLine(Math.max(1, (killAt - System.nanoTime()) / 1_000_000)))
          != null && System.nanoTime() < killAt) {
        acked = Math.max(acked, parseAcked(line, what));
      }
      child.kill();
      // Lines printed before the kill still sit in the pipe: each is a true acknowledgement.
      while ((line = child.nextLine(10_000)) != null) {
        acked = Math.max(acked, parseAcked(line, what));
      }
    }
    return acked;
  }

  private static long parseAcked(String line, String what) {
    if (line.startsWith("acked ")) {
      return Long.parseLong(line.substring(6));
    }
    return fail(what + ": the child reported: " + line);
  }

  /** Reopens the store, checks it against the model and returns what it holds. */
  private static byte[][] checkRecovered(Path file, byte[][] before, CrashOps ops, long acked,
      String what) throws IOException {
    try (Datastore ds = Datastore.open(file, DatastoreConfig.defaults())) {
      assertEquals(List.of(), ds.recoveryReport().skipped(),
          what + ": a kill damages no record in the middle of the log");
      byte[][] recovered = new byte[KEYS][];
      long present = 0;
      for (int k = 0; k < KEYS; k++) {
        recovered[k] = ds.get(CrashOps.keyOf(k));
        present += recovered[k] == null ? 0 : 1;
      }
      assertEquals(present, ds.size(), what + ": live keys beyond the written ones");
      long prefix = matchingPrefix(before, recovered, ops, acked);
      assertTrue(prefix >= 0, what + ": the store holds no state reached after "
          + acked + " or more operations (" + acked + " were acknowledged durable)");
      return recovered;
    }
  }

  /**
   * The length of an operation prefix, at least {@code acked}, after which the model equals
   * {@code recovered}; -1 when there is none. Walks the prefixes one operation at a time,
   * keeping the count of keys on which model and store differ.
   */
  private static long matchingPrefix(byte[][] before, byte[][] recovered, CrashOps ops,
      long acked) {
    byte[][] model = before.clone();
    for (long i = 0; i < acked; i++) {
      apply(model, ops.at(i));
    }
    int differing = 0;
    for (int k = 0; k < KEYS; k++) {
      differing += Arrays.equals(model[k], recovered[k]) ? 0 : 1;
    }
    for (long m = acked; m < acked + MAX_UNACKNOWLEDGED_OPS; m++) {
      if (differing == 0) {
        return m;
      }
      CrashOps.Op op = ops.at(m);
      int k = op.key();
      boolean differedBefore = !Arrays.equals(model[k], recovered[k]);
      apply(model, op);
      boolean differsNow = !Arrays.equals(model[k], recovered[k]);
      differing += (differsNow ? 1 : 0) - (differedBefore ? 1 : 0);
    }
    return -1;
  }

  private static void apply(byte[][] model, CrashOps.Op op) {
    model[op.key()] = op.value();
  }
}

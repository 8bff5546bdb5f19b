package org.fawnpack.kv.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a child JVM ({@link CrashWriter}) with SIGKILL in the middle of its writes, reopens the
 * store and checks: every write the child was told is durable is there with its value, what is
 * there is an unbroken prefix of the writes, and nothing else is served. (A process kill keeps
 * what reached the page cache; power loss is not simulated.)
 */
class CrashTest {

  @TempDir
  Path dir;

  @ParameterizedTest
  @EnumSource(value = SyncPolicy.class, names = {"EVERY_WRITE", "INTERVAL"})
  void kill9DuringWrites_keepsEverySyncedWrite(SyncPolicy policy) throws Exception {
    crashAndCheck(policy, 2, 300);
  }

  @Tag("long")
  @ParameterizedTest
  @EnumSource(value = SyncPolicy.class, names = {"EVERY_WRITE", "INTERVAL", "NONE"})
  void kill9DuringWrites_manyRounds(SyncPolicy policy) throws Exception {
    crashAndCheck(policy, 15, 2_000);
  }

  private void crashAndCheck(SyncPolicy policy, int rounds, long minimumDurable)
      throws Exception {
    Path file = dir.resolve("crash-" + policy + ".fds");
    for (int round = 0; round < rounds; round++) {
      java.nio.file.Files.deleteIfExists(file);
      java.nio.file.Files.deleteIfExists(IndexCheckpoint.pathFor(file));
      long durable = runAndKill(file, policy, minimumDurable + round * 97L);
      try (Datastore ds = Datastore.open(file, DatastoreConfig.defaults())) {
        int present = 0;
        while (ds.get(CrashWriter.keyOf(present)) != null) {
          assertArrayEquals(CrashWriter.valueOf(present), ds.get(CrashWriter.keyOf(present)));
          present++;
        }
        for (int gap = present; gap < present + 1000; gap++) {
          assertNull(ds.get(CrashWriter.keyOf(gap)), "writes survive as a prefix");
        }
        assertTrue(present >= durable || policy == SyncPolicy.NONE,
            policy + " round " + round + ": " + present + " writes survived, " + durable
                + " were reported durable");
        assertEquals(present, ds.size());
      }
    }
  }

  /**
   * Runs the child until it reports {@code target} durable writes (under {@code none}: until it
   * has written that many), then SIGKILLs it.
   */
  private static long runAndKill(Path file, SyncPolicy policy, long target) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    ProcessBuilder builder = new ProcessBuilder(java, "-Xmx128m", "-cp",
        System.getProperty("java.class.path"), CrashWriter.class.getName(), file.toString(),
        policy.name());
    builder.redirectError(ProcessBuilder.Redirect.DISCARD);
    Process child = builder.start();
    long durable = 0;
    try (BufferedReader out = new BufferedReader(
        new InputStreamReader(child.getInputStream(), StandardCharsets.US_ASCII))) {
      String line;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while ((line = out.readLine()) != null && System.nanoTime() < deadline) {
        if (line.startsWith("durable ")) {
          durable = Long.parseLong(line.substring(8));
          if (durable >= target) {
            break;
          }
        } else if (policy == SyncPolicy.NONE && line.startsWith("written ")
            && Long.parseLong(line.substring(8)) >= target) {
          break;
        }
      }
      // Lines printed after this one are not read: "durable" is a lower bound, as it must be.
    } finally {
      child.destroyForcibly();
      child.waitFor(30, TimeUnit.SECONDS);
    }
    assertTrue(policy == SyncPolicy.NONE || durable >= target,
        "the child reported only " + durable + " durable writes");
    return durable;
  }
}

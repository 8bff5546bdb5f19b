package org.fawnpack.kv.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.fawnpack.conf.InvalidConfigValueException;
import org.fawnpack.kv.time.Backoff;
import org.fawnpack.kv.time.Backoffs;
import org.junit.jupiter.api.Test;

/**
 * The {@code fawn.kv.backoff.*} keys: unset, every loop pauses as it did before they existed
 * (the numbers written out here, not read from the code under test); set, each pair gives its
 * kind of wait, and a bad pair is refused naming the key.
 */
class BackoffKeysTest {

  @Test
  void unset_theFormerPauses() {
    Backoffs read = BackoffKeys.read(Map.<String, String>of()::get);
    assertEquals(new Backoff(50, 1_600), read.request());
    assertEquals(new Backoff(20, 500), read.cluster());
    assertEquals(new Backoff(20, 1_000), read.bulk());
    assertEquals(new Backoff(50, 500), read.copy());
    assertEquals(new Backoff(200, 200), read.chainResend());
    assertEquals(new Backoff(200, 1_000), read.zookeeper()); // was fixed: 200 ms or 1 s
    assertEquals(Backoffs.DEFAULTS, read);
  }

  @Test
  void set_eachPairGivesItsKind() {
    Backoffs read = BackoffKeys.read(Map.of(
        "fawn.kv.backoff.request.first-pause-ms", "10",
        "fawn.kv.backoff.request.max-pause-ms", "80",
        "fawn.kv.backoff.chain-resend.first-pause-ms", "5",
        "fawn.kv.backoff.copy.max-pause-ms", "2000",
        "fawn.kv.backoff.zookeeper.max-pause-ms", "300")::get);
    assertEquals(new Backoff(10, 80), read.request());
    assertEquals(new Backoff(5, 200), read.chainResend());
    assertEquals(new Backoff(50, 2_000), read.copy());
    assertEquals(new Backoff(200, 300), read.zookeeper());
    assertEquals(new Backoff(20, 500), read.cluster(), "unset: the default");
  }

  @Test
  void largestBelowFirst_refusedNamingBothKeys() {
    InvalidConfigValueException e = assertThrows(InvalidConfigValueException.class,
        () -> BackoffKeys.read(Map.of("fawn.kv.backoff.cluster.first-pause-ms", "600")::get));
    assertEquals("fawn.kv.backoff.cluster.max-pause-ms", e.key());
    assertTrue(e.getMessage().contains("fawn.kv.backoff.cluster.first-pause-ms (600)"),
        e.getMessage());
  }

  @Test
  void zeroOrNotANumber_refusedNamingTheKey() {
    assertEquals("fawn.kv.backoff.bulk.first-pause-ms", assertThrows(
        InvalidConfigValueException.class, () -> BackoffKeys.read(
            Map.of("fawn.kv.backoff.bulk.first-pause-ms", "0")::get)).key());
    assertEquals("fawn.kv.backoff.copy.max-pause-ms", assertThrows(
        InvalidConfigValueException.class, () -> BackoffKeys.read(
            Map.of("fawn.kv.backoff.copy.max-pause-ms", "soon")::get)).key());
  }

  @Test
  void everyKeyIsAClusterKey() {
    assertTrue(KvKeys.KEYS.containsAll(BackoffKeys.KEYS), "./fawn kv takes them as -D");
    assertEquals(12, BackoffKeys.KEYS.size());
  }
}

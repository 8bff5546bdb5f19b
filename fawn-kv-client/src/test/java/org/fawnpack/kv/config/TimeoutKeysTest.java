package org.fawnpack.kv.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import org.fawnpack.conf.InvalidConfigValueException;
import org.fawnpack.kv.wire.Timeouts;
import org.junit.jupiter.api.Test;

/**
 * The {@code fawn.kv.timeout.*} keys: unset, the waits the callers had as constants before
 * (written out here); set, each gives its class; a bad value is refused naming the key.
 */
class TimeoutKeysTest {

  @Test
  void unset_theFormerWaits() {
    Timeouts read = TimeoutKeys.read(Map.<String, String>of()::get);
    assertEquals(Duration.ofSeconds(3), read.clientTry());
    assertEquals(Duration.ofSeconds(10), read.answer());
    assertEquals(Duration.ofSeconds(60), read.transfer());
    assertEquals(Timeouts.DEFAULTS, read);
  }

  @Test
  void set_eachKeyGivesItsClass() {
    Timeouts read = TimeoutKeys.read(Map.of("fawn.kv.timeout.answer-ms", "250",
        "fawn.kv.timeout.transfer-ms", "90000", "fawn.kv.client.try-timeout-ms", "700")::get);
    assertEquals(new Timeouts(Duration.ofMillis(700), Duration.ofMillis(250),
        Duration.ofSeconds(90)), read);
  }

  @Test
  void zeroOrNotANumber_refusedNamingTheKey() {
    assertEquals("fawn.kv.timeout.answer-ms", assertThrows(InvalidConfigValueException.class,
        () -> TimeoutKeys.read(Map.of("fawn.kv.timeout.answer-ms", "0")::get)).key());
    InvalidConfigValueException e = assertThrows(InvalidConfigValueException.class,
        () -> TimeoutKeys.read(Map.of("fawn.kv.timeout.transfer-ms", "soon")::get));
    assertEquals("fawn.kv.timeout.transfer-ms", e.key());
    assertTrue(e.getMessage().contains("soon"), e.getMessage());
  }

  @Test
  void everyKey_isAClusterKey() {
    for (var key : TimeoutKeys.KEYS) {
      assertTrue(KvKeys.KEYS.contains(key), key.name());
    }
  }
}

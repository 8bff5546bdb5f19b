package org.fawnpack.kv.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.Map;
import org.fawnpack.conf.InvalidConfigValueException;
import org.fawnpack.kv.wire.Timeouts;
import org.fawnpack.kv.wire.Verb;
import org.junit.jupiter.api.Test;

/** A node's {@code -D fawn.kv.timeout.*} reach the waits it hands its parts. */
class KvSettingsTimeoutsTest {

  @Test
  void keysGiven_becomeTheNodesWaits() {
    Timeouts t = KvSettings.from(Map.of("fawn.kv.timeout.answer-ms", "1500",
        "fawn.kv.timeout.transfer-ms", "120000")).timeouts();
    assertEquals(Duration.ofMillis(1_500), t.of(Verb.STATS));
    assertEquals(Duration.ofMinutes(2), t.of(Verb.ARC_CHUNK));
    assertEquals(Duration.ofMillis(1_500 + 5_000), t.longPoll(5_000));
    assertEquals(Timeouts.DEFAULTS, KvSettings.from(Map.of()).timeouts());
  }

  @Test
  void misspelledKey_refusedByName() {
    assertEquals("fawn.kv.timeout.answers-ms", assertThrows(InvalidConfigValueException.class,
        () -> KvSettings.from(Map.of("fawn.kv.timeout.answers-ms", "10"))).key());
  }
}

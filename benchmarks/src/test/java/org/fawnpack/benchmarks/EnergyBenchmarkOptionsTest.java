package org.fawnpack.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;

class EnergyBenchmarkOptionsTest {

  @Test
  void parse_noOptions_runsEverything() {
    EnergyBenchmarkOptions options = EnergyBenchmarkOptions.parse(new String[0]);
    assertEquals(60, options.seconds());
    assertEquals(3, options.rounds());
    assertEquals(8, options.containers());
    assertEquals(64, options.files());
    assertEquals(500, options.fileKb());
    assertEquals(Path.of("docs", "benchmarks.md"), options.report());
    assertEquals("./fawn bench-energy", options.command());
    for (String part : EnergyBenchmarkOptions.PARTS) {
      assertTrue(options.runs(part), part);
    }
  }

  @Test
  void parse_only_selectsParts() {
    EnergyBenchmarkOptions options = EnergyBenchmarkOptions.parse(
        new String[] {"--only", "sampler,overhead", "--seconds", "5", "--rounds", "1"});
    assertEquals(Set.of("sampler", "overhead"), options.only());
    assertTrue(options.runs("sampler"));
    assertFalse(options.runs("attribution"));
    assertEquals(5, options.seconds());
    assertEquals(1, options.rounds());
    assertEquals("./fawn bench-energy --only sampler,overhead --seconds 5 --rounds 1",
        options.command());
  }

  @Test
  void parse_badOptions_rejected() {
    assertThrows(IllegalArgumentException.class,
        () -> EnergyBenchmarkOptions.parse(new String[] {"--bogus"}));
    assertThrows(IllegalArgumentException.class,
        () -> EnergyBenchmarkOptions.parse(new String[] {"--only", "sampler,wordcount"}));
    assertThrows(IllegalArgumentException.class,
        () -> EnergyBenchmarkOptions.parse(new String[] {"--seconds", "0"}));
    assertThrows(IllegalArgumentException.class,
        () -> EnergyBenchmarkOptions.parse(new String[] {"--rounds", "x"}));
    assertThrows(IllegalArgumentException.class,
        () -> EnergyBenchmarkOptions.parse(new String[] {"--seconds"}));
  }
}

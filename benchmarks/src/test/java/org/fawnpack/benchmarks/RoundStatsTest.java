package org.fawnpack.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Expected values worked out by hand, not with the class's own arithmetic. */
class RoundStatsTest {

  private static final double EXACT = 1e-12;

  @Test
  void of_threeRounds_meanAndSampleSd() {
    // 10, 12, 17: mean 39 / 3 = 13; squared deviations 9 + 1 + 16 = 26; 26 / (3 - 1) = 13.
    RoundStats s = RoundStats.of(List.of(17.0, 10.0, 12.0));
    assertEquals(3, s.runs());
    assertEquals(13, s.mean(), EXACT);
    assertEquals(Math.sqrt(13), s.sd(), EXACT);
    assertEquals(3.605551275463989, s.sd(), 1e-12);
    assertEquals(12, s.median(), EXACT);
    assertEquals(10, s.min(), EXACT);
    assertEquals(17, s.max(), EXACT);
  }

  @Test
  void of_evenRounds_medianBetweenTheMiddleTwo() {
    // 1, 2, 3, 4: mean 2.5; squared deviations 2.25 + 0.25 + 0.25 + 2.25 = 5; 5 / 3.
    RoundStats s = RoundStats.of(4, 1, 3, 2);
    assertEquals(2.5, s.median(), EXACT);
    assertEquals(2.5, s.mean(), EXACT);
    assertEquals(Math.sqrt(5.0 / 3), s.sd(), EXACT);
  }

  @Test
  void of_equalRounds_sdZero() {
    assertEquals(0, RoundStats.of(21.7, 21.7).sd(), EXACT);
  }

  @Test
  void of_oneRound_noSd() {
    RoundStats s = RoundStats.of(List.of(553.7));
    assertEquals(1, s.runs());
    assertEquals(553.7, s.mean(), EXACT);
    assertEquals(553.7, s.median(), EXACT);
    assertTrue(Double.isNaN(s.sd()));
    assertEquals("553.7 ± –", s.meanSd("%.1f"));
  }

  @Test
  void of_noRounds_rejected() {
    assertThrows(IllegalArgumentException.class, () -> RoundStats.of(List.<Double>of()));
  }

  @Test
  void meanSd_threeRounds_bothInThePattern() {
    assertEquals("13.0 ± 3.6", RoundStats.of(10, 12, 17).meanSd("%.1f"));
    assertEquals("13.00 ± 3.61", RoundStats.of(10, 12, 17).meanSd("%.2f"));
    assertEquals("13,000 ± 3,606", RoundStats.of(10_000, 12_000, 17_000).meanSd("%,.0f"));
  }

  @Test
  void meanSd_givenNumbers_nanSdIsADash() {
    assertEquals("512 ± 9", RoundStats.meanSd(512.4, 9.2, "%.0f"));
    assertEquals("512 ± –", RoundStats.meanSd(512.4, Double.NaN, "%.0f"));
  }
}

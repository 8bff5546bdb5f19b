package org.fawnpack.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class MeasurementsTest {

  @Test
  void stats_perVariant_inFirstMeasuredOrder() {
    Measurements m = new Measurements();
    m.add("b", 10, 4);
    m.add("a", 5, 1);
    m.add("b", 17, 4);
    m.add("b", 12, 7);
    assertEquals(List.of("b", "a"), m.variants());
    assertEquals(3, m.runs("b"));
    assertEquals(7, m.maps("b")); // the last run's
    assertEquals(12, m.median("b"), 1e-12);
    assertEquals(10, m.min("b"), 1e-12);
    assertEquals(17, m.max("b"), 1e-12);
    assertEquals(13, m.stats("b").mean(), 1e-12);
    assertEquals(Math.sqrt(13), m.stats("b").sd(), 1e-12);
    assertTrue(Double.isNaN(m.stats("a").sd()));
  }
}

package org.fawnpack.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Seed 003's Table 8 as typed in, checked against the paper's prose (§5.2.1, §5.2.2). */
class PaperTable8Test {

  @Test
  void figures_matchThePapersProse() {
    // §5.2.1: "on Dell cluster are 213s and 40214J ... on Edison cluster the numbers are 310s
    // and 17670J" (35 Edisons, 2 Dells).
    assertEquals(new PaperTable8.Figure(213, 40214), PaperTable8.figure("dell-r620", 2,
        "wordcount"));
    assertEquals(new PaperTable8.Figure(310, 17670), PaperTable8.figure("edison", 35,
        "wordcount"));
    assertEquals(new PaperTable8.Figure(1076, 7009), PaperTable8.figure("edison", 4, "pi"));
    assertNull(PaperTable8.figure("edison", 5, "wordcount"), "the paper ran no 5-node cluster");
    assertNull(PaperTable8.figure("rpi4-4g", 4, "wordcount"), "not a node of the paper");
    assertEquals(List.of(35, 17, 8, 4), PaperTable8.sizes("edison"));
  }

  @Test
  void text_theDemosSizesWhenMeasured_ratiosOfTheSecondToTheFirst() {
    String text = PaperTable8.text(List.of("wordcount", "wordcount2", "kvcount"), "edison", 4,
        "dell-r620", 2);
    assertTrue(text.contains("4 x edison against 2 x dell-r620"), text);
    // 213 / 3283 s = 0.06x wall; 40214 / 21386 J = 1.88x; work per joule 21386 / 40214 = 0.53x.
    assertTrue(text.contains("3,283 s 21,386 J") && text.contains("213 s 40,214 J")
        && text.contains("0.06x    1.88x     0.53x"), text);
    assertTrue(text.contains("(not in the paper's table: kvcount)"), text);
  }

  @Test
  void text_aSizeThePaperDidNotRun_itsLargest_andNothingForUnknownProfiles() {
    assertTrue(PaperTable8.text(List.of("pi"), "edison", 6, "dell-r620", 1).contains(
        "35 x edison against 1 x dell-r620"));
    assertEquals("", PaperTable8.text(List.of("pi"), "rpi4-4g", 4, "rpi5-8g", 2));
  }
}

package org.fawnpack.minicluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class DemoOptionsTest {

  @Test
  void parse_noArguments_defaultsFitTheFiveMinuteBudget() {
    DemoOptions options = DemoOptions.parse(new String[0]);
    assertEquals(32, options.textFiles());
    assertEquals(48, options.logFiles());
    assertFalse(options.keep());
    assertEquals(Path.of("target", "demo"), options.outDir());
  }

  @Test
  void parse_paper_usesThePapersFileCounts() {
    DemoOptions options = DemoOptions.parse(new String[] {"--paper", "--keep"});
    assertEquals(200, options.textFiles());
    assertEquals(500, options.logFiles());
    assertTrue(options.keep());
  }

  @Test
  void parse_explicitCountsAfterPaper_win() {
    DemoOptions options = DemoOptions.parse(new String[] {"--paper", "--text-files", "7"});
    assertEquals(7, options.textFiles());
    assertEquals(500, options.logFiles());
  }

  @Test
  void parse_unknownOption_rejectedNamingIt() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> DemoOptions.parse(new String[] {"--fast"}));
    assertTrue(e.getMessage().contains("--fast"), e.getMessage());
  }

  @Test
  void parse_missingValue_rejectedNamingTheOption() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> DemoOptions.parse(new String[] {"--log-files"}));
    assertEquals("--log-files needs a value", e.getMessage());
  }

  @Test
  void parse_zeroOrWord_rejectedWithTheValue() {
    IllegalArgumentException zero = assertThrows(IllegalArgumentException.class,
        () -> DemoOptions.parse(new String[] {"--text-kb", "0"}));
    assertEquals("--text-kb must be at least 1: 0", zero.getMessage());
    IllegalArgumentException word = assertThrows(IllegalArgumentException.class,
        () -> DemoOptions.parse(new String[] {"--text-kb", "many"}));
    assertEquals("--text-kb needs a whole number: 'many'", word.getMessage());
  }

  @Test
  void parse_profile_defaultsToEdisonAndTakesAName() {
    assertEquals("edison", DemoOptions.parse(new String[0]).profile());
    assertEquals("rpi4-4g", DemoOptions.parse(new String[] {"--profile", "rpi4-4g"}).profile());
  }
}

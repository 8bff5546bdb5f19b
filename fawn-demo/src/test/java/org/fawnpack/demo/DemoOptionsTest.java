package org.fawnpack.demo;

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
    assertFalse(options.kvJobs());
  }

  @Test
  void parse_kvJobs_runsTheFawnKvJobsInstead() {
    DemoOptions options = DemoOptions.parse(new String[] {"--kv-jobs", "--out", "x"});
    assertTrue(options.kvJobs());
    assertEquals(Path.of("x"), options.outDir());
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

  @Test
  void parse_noArguments_runsOnlyTheFourCountJobs() {
    DemoOptions options = DemoOptions.parse(new String[0]);
    assertFalse(options.all());
    assertEquals(DemoOptions.DEFAULT_TERA_ROWS, options.teraRows());
    assertEquals(DemoOptions.DEFAULT_MD5_BITS, options.md5Bits());
  }

  @Test
  void parse_allWithSizes_takesThem() {
    DemoOptions options = DemoOptions.parse(new String[] {"--md5-bits", "16", "--all",
        "--tera-rows", "5000"});
    assertTrue(options.all());
    assertEquals(5000, options.teraRows());
    assertEquals(16, options.md5Bits());
    assertEquals(32, options.textFiles(), "--all keeps the count jobs' defaults");
  }

  @Test
  void parse_teraRowsWithoutAll_rejectedNamingOptionAndValue() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> DemoOptions.parse(new String[] {"--tera-rows", "5000"}));
    assertEquals("--tera-rows 5000 applies only with --all", e.getMessage());
  }

  @Test
  void parse_md5BitsWithoutAll_rejectedNamingOptionAndValue() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> DemoOptions.parse(new String[] {"--md5-bits", "12"}));
    assertEquals("--md5-bits 12 applies only with --all", e.getMessage());
  }

  @Test
  void parse_teraRowsZeroOrWord_rejectedWithTheValue() {
    IllegalArgumentException zero = assertThrows(IllegalArgumentException.class,
        () -> DemoOptions.parse(new String[] {"--all", "--tera-rows", "0"}));
    assertEquals("--tera-rows must be at least 1: 0", zero.getMessage());
    IllegalArgumentException word = assertThrows(IllegalArgumentException.class,
        () -> DemoOptions.parse(new String[] {"--all", "--tera-rows", "1e6"}));
    assertEquals("--tera-rows needs a whole number: '1e6'", word.getMessage());
  }

  @Test
  void parse_md5BitsAbove32_rejectedWithTheRange() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> DemoOptions.parse(new String[] {"--all", "--md5-bits", "33"}));
    assertEquals("--md5-bits must be between 1 and 32 (md5gen's values are 4-byte records): 33",
        e.getMessage());
  }

  @Test
  void parse_md5BitsZero_rejectedWithTheValue() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> DemoOptions.parse(new String[] {"--all", "--md5-bits", "0"}));
    assertEquals("--md5-bits must be at least 1: 0", e.getMessage());
  }

  @Test
  void parse_md5BitsMissingValue_rejectedNamingTheOption() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> DemoOptions.parse(new String[] {"--all", "--md5-bits"}));
    assertEquals("--md5-bits needs a value", e.getMessage());
  }

  @Test
  void parse_compare_defaultsToSeed003sDellClusterOfTwo() {
    DemoOptions options = DemoOptions.parse(new String[] {"--compare"});
    assertEquals(new DemoOptions.Compare("dell-r620", 2), options.compare());
    assertEquals("edison", options.profile());
    assertEquals(4, options.slaves());
    assertEquals(null, DemoOptions.parse(new String[0]).compare());
  }

  @Test
  void parse_compare_againstAndItsSlaves() {
    DemoOptions options = DemoOptions.parse(new String[] {"--slaves", "3", "--compare",
        "--against", "rpi4-4g", "--against-slaves", "5"});
    assertEquals(new DemoOptions.Compare("rpi4-4g", 5), options.compare());
    assertEquals(3, options.slaves());
  }

  @Test
  void parse_againstWithoutCompare_rejectedNamingIt() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> DemoOptions.parse(new String[] {"--against", "dell-r620"}));
    assertEquals("--against dell-r620 applies only with --compare", e.getMessage());
  }

  @Test
  void parse_compareWithAllOrKvJobsOrKeep_rejected() {
    for (String other : new String[] {"--all", "--kv-jobs", "--keep"}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> DemoOptions.parse(new String[] {"--compare", other}));
      assertTrue(e.getMessage().contains("not with " + other), e.getMessage());
    }
  }

  @Test
  void parse_genericOptions_bothSpellings_forEveryJob() {
    DemoOptions options = DemoOptions.parse(new String[] {"-D", "mapreduce.job.reduces=1",
        "-Dfawn.input.combine.vcores=2"});
    assertEquals(java.util.List.of("-Dmapreduce.job.reduces=1", "-Dfawn.input.combine.vcores=2"),
        options.jobOptions());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> DemoOptions.parse(new String[] {"-D", "mapreduce.job.reduces"}));
    assertEquals("-D needs key=value: 'mapreduce.job.reduces'", e.getMessage());
  }

  @Test
  void parse_slavesZero_rejected() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> DemoOptions.parse(new String[] {"--slaves", "0"}));
    assertEquals("--slaves must be at least 1: 0", e.getMessage());
  }

  @Test
  void usage_listsAllAndItsOptions() {
    for (String option : new String[] {"--all", "--tera-rows N", "--md5-bits B", "--compare",
        "--against NAME", "--against-slaves N", "--slaves N", "-D key=value"}) {
      assertTrue(DemoOptions.USAGE.contains(option), option + " missing from:\n"
          + DemoOptions.USAGE);
    }
  }
}

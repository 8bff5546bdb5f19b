package org.fawnpack.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SummaryTableTest {

  private static final JobResult WORDCOUNT = new JobResult("wordcount2", true, 18.24, 4, 90_000,
      12_000, 30.0, true, WorkUnit.INPUT_RECORDS, 90_000, "same output as wordcount (12,000 keys)",
      "job_1700000000000_0002");
  private static final JobResult PI = new JobResult("pi", true, 21.0, 8, 8, 0, 40.0, true,
      WorkUnit.POINTS, 80_000_000, "", "job_1700000000000_0005");
  private static final JobResult UNMETERED = new JobResult("teravalidate", false, 30.0, 4,
      1_000_000, 1, Double.NaN, false, WorkUnit.INPUT_RECORDS, 1_000_000,
      "terasort's output is INVALID: checksum \"1\", expected 2", "job_1700000000000_0009");

  @Test
  void text_eachRow_showsWorkPerJouleInItsOwnUnit() {
    String table = SummaryTable.text(List.of(WORDCOUNT, PI));
    List<String> lines = table.lines().toList();
    assertTrue(lines.get(0).contains("work/J"), lines.get(0));
    assertTrue(lines.get(1).startsWith("wordcount2"), lines.get(1));
    assertTrue(lines.get(1).contains("3,000  input records"), lines.get(1));
    assertTrue(lines.get(2).contains("2,000,000  points"), lines.get(2));
    assertTrue(lines.get(2).contains("40.00*"), lines.get(2));
  }

  @Test
  void text_checks_listedUnderTheTableForCheckedRowsOnly() {
    String table = SummaryTable.text(List.of(WORDCOUNT, PI));
    assertTrue(table.contains("Checks:\n  wordcount2   same output as wordcount (12,000 keys)\n"),
        table);
    assertFalse(table.contains("  pi           "), table);
  }

  @Test
  void text_failedUnmeteredRow_marksFailedAndGivesTheReason() {
    String table = SummaryTable.text(List.of(UNMETERED));
    String row = table.lines().toList().get(1);
    assertTrue(row.contains(" n/a "), row);
    assertTrue(row.endsWith("input records  FAILED"), row);
    assertTrue(table.contains("teravalidate FAILED: terasort's output is INVALID"), table);
    assertFalse(table.contains("* estimated"), "no estimated joules in the table:\n" + table);
  }

  @Test
  void writeJson_rows_carryWorkUnitAndEscapedCheck(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("summary.json");
    SummaryTable.writeJson(List.of(PI, UNMETERED), file);
    String json = Files.readString(file);
    assertTrue(json.contains("\"work_unit\": \"points\", \"work\": 80000000, "
        + "\"work_per_joule\": 2000000.0"), json);
    assertTrue(json.contains("\"records_per_joule\": 0.2"), json);
    assertTrue(json.contains("\"joules\": null, \"records_per_joule\": null"), json);
    assertTrue(json.contains("\"check\": \"terasort's output is INVALID: checksum \\\"1\\\","
        + " expected 2\"}"), json);
  }

  @Test
  void jsonString_controlCharacters_escaped() {
    assertEquals("\"a\\tb\\nc\\\\d\\u0001\"", JobResult.jsonString("a\tb\nc\\d\u0001"));
  }
}

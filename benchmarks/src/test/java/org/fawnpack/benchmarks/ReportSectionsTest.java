package org.fawnpack.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportSectionsTest {

  private static final String B = "<!-- BEGIN x -->";
  private static final String E = "<!-- END x -->";

  @Test
  void write_sectionPresent_replacesOnlyItsOwn() {
    String text = "# T\n\nbefore\n" + B + "\nold\n" + E + "\nafter\n";
    assertEquals("# T\n\nbefore\n" + B + "\nnew\n" + E + "\nafter\n",
        ReportSections.replace(text, B, E, B + "\nnew\n" + E + "\n"));
  }

  @Test
  void write_sectionAbsentOrIncomplete_appended() {
    assertEquals("# T\n\n" + B + "\nnew\n" + E + "\n",
        ReportSections.replace("# T\n", B, E, B + "\nnew\n" + E + "\n"));
    assertEquals("# T\n\n" + B + "\nnew\n" + E + "\n",
        ReportSections.replace("# T\n\n", B, E, B + "\nnew\n" + E + "\n"));
    assertEquals("# T\n\n" + B + "\nnew\n" + E + "\n",
        ReportSections.replace("# T", B, E, B + "\nnew\n" + E + "\n"));
  }

  @Test
  void write_endMarkerAtEofWithoutLineBreak_found() {
    assertEquals(B + "\nnew\n" + E + "\n",
        ReportSections.replace(B + "\nold\n" + E, B, E, B + "\nnew\n" + E + "\n"));
  }

  @Test
  void between_markers_textInside() {
    assertEquals(Optional.of("\nin\n"), ReportSections.between("a" + B + "\nin\n" + E, B, E));
    assertEquals(Optional.empty(), ReportSections.between("a" + B + "\nin\n", B, E));
    assertEquals(Optional.empty(), ReportSections.between(E + "a", B, E));
  }

  @Test
  void write_energyPartsNotRun_keptAndOtherSectionsUntouched(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("benchmarks.md");
    String count = "<!-- BEGIN count-benchmark (written by CountBenchmark) -->\ncount rows\n"
        + "<!-- END count-benchmark -->\n";
    Files.writeString(file, "# Benchmarks\n\n" + count + "\nhand-written notes\n");

    EnergyBenchmarkReport first = new EnergyBenchmarkReport(file);
    first.put("sampler", EnergyBenchmarkReport.partBegin("sampler") + "\nsampler v1\n"
        + EnergyBenchmarkReport.partEnd("sampler") + "\n");
    first.put("attribution", EnergyBenchmarkReport.partBegin("attribution") + "\nattribution v1\n"
        + EnergyBenchmarkReport.partEnd("attribution") + "\n");
    first.write();

    EnergyBenchmarkReport second = new EnergyBenchmarkReport(file); // as a run with --only sampler sees it
    second.put("sampler", EnergyBenchmarkReport.partBegin("sampler") + "\nsampler v2\n"
        + EnergyBenchmarkReport.partEnd("sampler") + "\n");
    second.write();

    String text = Files.readString(file);
    assertTrue(text.startsWith("# Benchmarks\n\n" + count + "\nhand-written notes\n"), text);
    assertTrue(text.contains("sampler v2"), text);
    assertTrue(!text.contains("sampler v1"), text);
    assertTrue(text.contains("attribution v1"), text);
    assertEquals(text.indexOf(EnergyBenchmarkReport.BEGIN), text.lastIndexOf(EnergyBenchmarkReport.BEGIN), text);
  }
}

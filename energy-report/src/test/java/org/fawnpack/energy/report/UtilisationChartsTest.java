package org.fawnpack.energy.report;

import static org.fawnpack.energy.report.Fixtures.T0;
import static org.fawnpack.energy.report.ReportText.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The map, shuffle and reduce bands of ShuffleJob (by hand: map 1..58 s, shuffle 30..66 s,
 * reduce 66..110 s of 120 s) in the whole tool's HTML, JSON and text, against a fake JobHistory
 * server serving the reduce attempts.
 */
class UtilisationChartsTest {
  private static final double EPS = 0.006; // coordinates are printed with 2 decimals
  private static final Pattern RECT = Pattern.compile(
      "<rect class=\"phase (map|shuffle|reduce)\" x=\"([0-9.]+)\" y=\"[0-9]+\""
          + " width=\"([0-9.]+)\"");

  @TempDir
  Path tmp;
  private FakeJobHistoryServer jhs;

  @BeforeEach
  void start() throws Exception {
    jhs = ShuffleJob.serve(new FakeJobHistoryServer());
    ShuffleJob.writeHistories(tmp.resolve("history"));
  }

  @AfterEach
  void stop() {
    jhs.close();
  }

  @Test
  void html_everyPanelOfEveryNode_hasTheThreeBandsAtTheirTimes() throws Exception {
    Path html = tmp.resolve("report.html");
    ShuffleJob.report(jhs, tmp.resolve("history"), "--html", html.toString());
    String page = Files.readString(html);
    List<String> charted = new ArrayList<>();
    Matcher svg = Pattern.compile("(?s)<svg class=\"chart utilisation\"[^>]*data-node=\"([^\"]+)"
        + "\">(.*?)</svg>").matcher(page);
    while (svg.find()) {
      charted.add(svg.group(1));
      assertBands(svg.group(2), 5, svg.group(1)); // power, CPU, memory, disk, network
    }
    assertEquals(List.of("master0", "slave1", "slave2", "slave3", "slave4"), charted);

    // The application's power charts, one per history file, have them too.
    Matcher power = Pattern.compile("(?s)<svg class=\"chart\" .*?</svg>").matcher(page);
    int charts = 0;
    while (power.find()) {
      assertBands(power.group(), 1, "power chart " + charts++);
    }
    assertEquals(4, charts);
    assertTrue(page.contains("background:rgba(63,81,181,0.3)\"></span>shuffle phase</span>"),
        "the legend names the shuffle band");
    assertTrue(page.contains("<title>shuffle phase: 30.000 s to 66.000 s</title>"), page);
  }

  /** {@code perBand} rectangles of each phase, in map, shuffle, reduce order, at ShuffleJob's. */
  private static void assertBands(String svg, int perBand, String where) {
    Matcher rect = RECT.matcher(svg);
    List<String> order = new ArrayList<>();
    while (rect.find()) {
      order.add(rect.group(1));
      double[] seconds = switch (rect.group(1)) {
        case "map" -> ShuffleJob.MAP;
        case "shuffle" -> ShuffleJob.SHUFFLE;
        default -> ShuffleJob.REDUCE;
      };
      double x = Double.parseDouble(rect.group(2));
      double width = Double.parseDouble(rect.group(3));
      assertEquals(ShuffleJob.x(seconds[0]), x, EPS, where + " " + rect.group(1));
      assertEquals(ShuffleJob.x(seconds[1]), x + width, 2 * EPS, where + " " + rect.group(1));
    }
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < perBand; i++) {
      expected.addAll(List.of("map", "shuffle", "reduce"));
    }
    assertEquals(expected, order, where);
  }

  @Test
  void json_phasesAsServed() throws Exception {
    Path json = tmp.resolve("report.json");
    ShuffleJob.report(jhs, tmp.resolve("history"), "--json", json.toString());
    JsonNode phases = new ObjectMapper().readTree(json.toFile()).get("phases");
    assertEquals(T0 + 1_000, phases.get("map").get("startMillis").asLong());
    assertEquals(T0 + 58_000, phases.get("map").get("finishMillis").asLong());
    assertEquals(T0 + 30_000, phases.get("shuffle").get("startMillis").asLong(),
        "r0's failed first attempt's start");
    assertEquals(T0 + 66_000, phases.get("shuffle").get("finishMillis").asLong(),
        "r0's successful attempt's shuffleFinishTime");
    assertEquals(T0 + 66_000, phases.get("reduce").get("startMillis").asLong());
    assertEquals(T0 + 110_000, phases.get("reduce").get("finishMillis").asLong());
    assertTrue(phases.get("shuffleProblem").isNull());
  }

  @Test
  void text_andJson_noAttempts_noShuffleBand_reduceIsTheWholeReducePhase() throws Exception {
    jhs.close();
    jhs = new FakeJobHistoryServer().job(Fixtures.JOB_ID, ShuffleJob.jobJson(),
        ShuffleJob.countersJson(), ShuffleJob.tasksJson()); // no attempts: 404
    Path html = tmp.resolve("report.html");
    Path json = tmp.resolve("report.json");
    String text = ShuffleJob.report(jhs, tmp.resolve("history"), "--html", html.toString(),
        "--json", json.toString());
    assertEquals("1.000 s to 58.000 s", value(text, "map phase"));
    assertTrue(value(text, "shuffle phase").startsWith("n/a (the attempts of "
        + ShuffleJob.R0 + " could not be read: "), text);
    assertEquals("30.000 s to 110.000 s (shuffle included)", value(text, "reduce phase"));
    String page = Files.readString(html);
    assertTrue(!page.contains("class=\"phase shuffle\""), "no shuffle band");
    assertTrue(page.contains("<title>reduce phase: 30.000 s to 110.000 s</title>"));
    JsonNode phases = new ObjectMapper().readTree(json.toFile()).get("phases");
    assertTrue(phases.get("shuffle").isNull());
    assertTrue(phases.get("shuffleProblem").asText().contains(ShuffleJob.R0));
  }

  @Test
  void text_phaseRows() throws Exception {
    String text = ShuffleJob.report(jhs, tmp.resolve("history"));
    assertEquals("1.000 s to 58.000 s", value(text, "map phase"));
    assertEquals("30.000 s to 66.000 s", value(text, "shuffle phase"));
    assertEquals("66.000 s to 110.000 s", value(text, "reduce phase"));
  }
}

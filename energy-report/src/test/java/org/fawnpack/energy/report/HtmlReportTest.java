package org.fawnpack.energy.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class HtmlReportTest {
  private static final double EPS = 0.006; // coordinates are printed with 2 decimals

  @Test
  void render_page_selfContainedAndEscaped() throws IOException {
    String html = HtmlReport.render(Fixtures.model(false, 0));
    assertTrue(html.startsWith("<!DOCTYPE html>"));
    assertFalse(html.contains("<script"), "no scripts");
    assertFalse(html.contains("<link"), "no linked style sheets or fonts");
    assertFalse(html.contains("src="), "no external resources");
    assertFalse(html.contains("url("), "no external resources");
    assertFalse(html.contains("<logs>"), "the job name is escaped");
    assertTrue(html.contains("grep &lt;logs&gt; &amp; &#39;count&#39; &quot;now&quot;"), html);
  }

  @Test
  void render_summaryTable_holdsFigures() throws IOException {
    String html = HtmlReport.render(Fixtures.model(false, 0));
    assertEquals("1500.000 J", cell(html, "task energy"));
    assertEquals("5000.000 J (whole nodes, job window)", cell(html, "node energy"));
    assertEquals("50.000 W (node energy / wall time)", cell(html, "average power"));
    assertEquals("2000.000 input records/J (3000000 input records)", cell(html, "work/J"));
    assertEquals("100000.000 B/J (150000000 bytes read)", cell(html, "bytes/J"));
    assertEquals("3 of 3", cell(html, "tasks metered"));
    assertEquals("20 (1 with gaps, 5.0 %)", cell(html, "history samples"));
  }

  @Test
  void render_chart_onePowerLinePerNodeWithPhases() throws IOException {
    String html = HtmlReport.render(Fixtures.model(false, 0));
    List<String> svgs = all(html, "(?s)<svg .*?</svg>");
    assertEquals(2, svgs.size());
    assertEquals(2, count(html, "<polyline "));
    for (String svg : svgs) {
      assertEquals(1, count(svg, "<polyline class=\"power\""), svg);
      assertTrue(svg.contains("seconds since job start"));
      assertTrue(svg.contains(">watts</text>"));
      // map phase 2..60 s, shuffle 55..70 s and reduce 70..98 s of a 100 s job, 680 units
      // wide from x=64
      double[] map = rect(svg, "map");
      assertEquals(64 + 0.02 * 680, map[0], EPS);
      assertEquals(0.58 * 680, map[1], EPS);
      double[] shuffle = rect(svg, "shuffle");
      assertEquals(64 + 0.55 * 680, shuffle[0], EPS);
      assertEquals(0.15 * 680, shuffle[1], EPS);
      double[] reduce = rect(svg, "reduce");
      assertEquals(64 + 0.70 * 680, reduce[0], EPS);
      assertEquals(0.28 * 680, reduce[1], EPS);
    }
    assertTrue(svgs.get(0).contains("Node nodeA (nodeA.csv)"));
    assertTrue(svgs.get(1).contains("Node nodeB (nodeB.csv)"));

    // nodeA: 10 samples inside the window at 5, 15, ... 95 s, all 20 W
    String[] points = attribute(svgs.get(0), "polyline", "points").split(" ");
    assertEquals(10, points.length);
    double yMax = HtmlReport.niceCeiling(20 * 1.1);
    for (int i = 0; i < points.length; i++) {
      String[] xy = points[i].split(",");
      assertEquals(64 + (5 + 10 * i) / 100.0 * 680, Double.parseDouble(xy[0]), EPS);
      assertEquals(HtmlReport.y(20, yMax), Double.parseDouble(xy[1]), EPS);
    }
    assertEquals(1, count(svgs.get(0), "<circle class=\"gap\""));
    // nodeB: the last sample ends at the finish, the right edge of the plot
    String[] pointsB = attribute(svgs.get(1), "polyline", "points").split(" ");
    assertEquals(10, pointsB.length);
    assertEquals(64 + 680, Double.parseDouble(pointsB[9].split(",")[0]), EPS);
  }

  @Test
  void render_estimatedOrMissingHistory_shown() throws IOException {
    String html = HtmlReport.render(Fixtures.model(true, 0));
    assertTrue(html.contains("<p class=\"estimated\">ESTIMATED (model): history file nodeA.csv"
        + " says estimated=true</p>"), html);
  }

  @Test
  void niceScale_ranges_roundSteps() {
    assertEquals(1, HtmlReport.niceStep(0.7), 1e-12);
    assertEquals(20, HtmlReport.niceStep(12.5), 1e-12);
    assertEquals(50, HtmlReport.niceStep(41), 1e-12);
    assertEquals(25, HtmlReport.niceCeiling(22), 1e-12);
    assertEquals(150, HtmlReport.niceCeiling(133), 1e-12);
  }

  private static String cell(String html, String label) {
    Matcher m = Pattern.compile("<tr><td>" + Pattern.quote(label) + "</td><td>([^<]*)</td></tr>")
        .matcher(html);
    assertTrue(m.find(), "no row " + label);
    return m.group(1);
  }

  private static double[] rect(String svg, String phase) {
    Matcher m = Pattern.compile("<rect class=\"phase " + phase
        + "\" x=\"([0-9.]+)\" y=\"[0-9]+\" width=\"([0-9.]+)\"").matcher(svg);
    assertTrue(m.find(), "no " + phase + " rectangle in " + svg);
    double[] xw = {Double.parseDouble(m.group(1)), Double.parseDouble(m.group(2))};
    assertFalse(m.find(), "two " + phase + " rectangles");
    return xw;
  }

  private static String attribute(String svg, String element, String name) {
    Matcher m = Pattern.compile("<" + element + " [^>]*" + name + "=\"([^\"]*)\"").matcher(svg);
    assertTrue(m.find());
    return m.group(1);
  }

  private static List<String> all(String text, String regex) {
    List<String> found = new ArrayList<>();
    Matcher m = Pattern.compile(regex).matcher(text);
    while (m.find()) {
      found.add(m.group());
    }
    return found;
  }

  private static int count(String text, String what) {
    return all(text, Pattern.quote(what)).size();
  }
}

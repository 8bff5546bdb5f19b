package org.fawnpack.energy.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report page as a real browser lays it out: headless Chromium loads ShuffleJob's page with
 * a probe script added (the page itself has none) that writes each chart's band rectangles —
 * where Chromium put them and the fill it computed from the page's style — into the DOM, which
 * {@code --dump-dom} prints. Skipped where no Chromium is on the PATH (CI has none).
 */
class HtmlReportChromiumTest {
  private static final String PROBE = """
      <script>
      const out = [];
      for (const svg of document.querySelectorAll('svg.chart')) {
        const box = svg.getBoundingClientRect();
        const bands = [];
        for (const r of svg.querySelectorAll('rect.phase')) {
          const b = r.getBoundingClientRect();
          const style = getComputedStyle(r);
          bands.push([r.classList[1], b.left - box.left, b.right - box.left, b.height,
              style.fill, style.fillOpacity].join('/'));
        }
        out.push([(svg.classList.contains('utilisation') ? 'use ' : 'power ') + svg.dataset.node,
            box.width, svg.querySelectorAll('polyline').length,
            bands.join(';')].join('|'));
      }
      const pre = document.createElement('pre');
      pre.id = 'probe';
      pre.textContent = out.join('\\n');
      document.body.appendChild(pre);
      </script>
      """;
  private static final Map<String, String> FILL = Map.of("map", "rgb(76, 175, 80)",
      "shuffle", "rgb(63, 81, 181)", "reduce", "rgb(255, 152, 0)");

  @TempDir
  Path tmp;

  @Test
  void chromium_drawsTheThreeBandsInEveryPanel_whereTheJobsPhasesWere() throws Exception {
    String chromium = chromium();
    assumeTrue(chromium != null, "no chromium on the PATH");
    Path page = tmp.resolve("report.html");
    try (FakeJobHistoryServer jhs = ShuffleJob.serve(new FakeJobHistoryServer())) {
      ShuffleJob.writeHistories(tmp.resolve("history"));
      ShuffleJob.report(jhs, tmp.resolve("history"), "--html", page.toString());
    }
    // Kept for a look (docs/img/energy-report-utilisation.png was taken from it).
    Path kept = Files.createDirectories(Path.of("target", "chromium"));
    Files.copy(page, kept.resolve("energy-report.html"), StandardCopyOption.REPLACE_EXISTING);
    Path probed = tmp.resolve("probed.html");
    Files.writeString(probed, Files.readString(page).replace("</body>", PROBE + "</body>"));

    List<String> charts = probe(chromium, probed);
    assertEquals(4 + 5, charts.size(), "4 power charts, 5 nodes' utilisation: " + charts);
    for (String chart : charts) {
      String[] f = chart.split("\\|", -1);
      boolean utilisation = f[0].startsWith("use ");
      assertEquals(760.0, Double.parseDouble(f[1]), 0.01, chart);
      assertEquals(utilisation ? 5 : 1, Integer.parseInt(f[2]), "lines in " + chart);
      String[] bands = f[3].split(";");
      assertEquals(utilisation ? 15 : 3, bands.length, chart);
      for (String band : bands) {
        String[] b = band.split("/", -1);
        double[] seconds = switch (b[0]) {
          case "map" -> ShuffleJob.MAP;
          case "shuffle" -> ShuffleJob.SHUFFLE;
          default -> ShuffleJob.REDUCE;
        };
        // One SVG unit is one CSS pixel (width = viewBox width).
        assertEquals(ShuffleJob.x(seconds[0]), Double.parseDouble(b[1]), 0.02, band);
        assertEquals(ShuffleJob.x(seconds[1]), Double.parseDouble(b[2]), 0.02, band);
        assertEquals(utilisation ? 64 : HtmlReport.PLOT_HEIGHT, Double.parseDouble(b[3]), 0.01,
            band);
        assertEquals(FILL.get(b[0]), b[4], band);
        assertTrue(Double.parseDouble(b[5]) > 0.1 && Double.parseDouble(b[5]) < 0.2, band);
      }
    }
  }

  /** The probe's lines from the DOM Chromium dumps. */
  private List<String> probe(String chromium, Path page) throws Exception {
    Path dom = tmp.resolve("dom.html");
    Process p = new ProcessBuilder(chromium, "--headless", "--no-sandbox", "--disable-gpu",
        "--disable-dev-shm-usage", "--user-data-dir=" + tmp.resolve("profile"), "--dump-dom",
        page.toUri().toString()).redirectOutput(dom.toFile())
        .redirectError(tmp.resolve("chromium.log").toFile()).start();
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("chromium did not finish in 120 s");
    }
    String html = Files.readString(dom, StandardCharsets.UTF_8);
    Matcher m = Pattern.compile("(?s)<pre id=\"probe\">(.*?)</pre>").matcher(html);
    assertTrue(m.find(), "no probe in Chromium's DOM (exit " + p.exitValue() + "): "
        + Files.readString(tmp.resolve("chromium.log")));
    assertTrue(html.contains("class=\"phase shuffle\""), "the page's own bands are in the DOM");
    List<String> lines = new ArrayList<>();
    for (String line : m.group(1).split("\n")) {
      lines.add(line.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&"));
    }
    return lines;
  }

  /** The first of Chromium's usual names found on the PATH; null if none. */
  static String chromium() {
    String path = System.getenv("PATH");
    for (String name : List.of("chromium", "chromium-browser", "google-chrome")) {
      for (String dir : path == null ? new String[0] : path.split(File.pathSeparator)) {
        if (Files.isExecutable(Path.of(dir, name))) {
          return Path.of(dir, name).toString();
        }
      }
    }
    return null;
  }
}

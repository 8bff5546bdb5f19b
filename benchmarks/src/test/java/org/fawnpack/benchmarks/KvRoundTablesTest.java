package org.fawnpack.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The FAWN-KV tables that report over rounds: their mean ± sd rows and sentences. */
class KvRoundTablesTest {

  @Test
  void powerCut_meanRow_bothRecoveryTimes() {
    // 7.6, 7.3, 7.1: mean 7.333, squared deviations 0.0711 + 0.0011 + 0.0544 = 0.1267, sd 0.252.
    // 9.3, 8.5, 8.5: mean 8.767, squared deviations 0.2844 + 0.0711 + 0.0711 = 0.4267, sd 0.462.
    assertEquals("| mean ± sd of 3 | | 7.3 ± 0.3 | 8.8 ± 0.5 | |",
        KvPowerCutPart.meanRow(List.of(7.6, 7.3, 7.1), List.of(9.3, 8.5, 8.5)));
  }

  @Test
  void journal_meanRows_perSettingWithoutPercentiles() {
    List<KvJournalPart.Round> rounds = List.of(
        new KvJournalPart.Round(false, 14_000, 110, 3_800, 1.75, 7.07, 340),
        new KvJournalPart.Round(true, 19_000, 90, 4_700, 1.34, 7.13, 270),
        new KvJournalPart.Round(true, 21_000, 80, 5_300, 1.19, 6.54, 230),
        new KvJournalPart.Round(false, 18_000, 100, 4_200, 1.68, 6.62, 330));
    // none: 14,000 and 18,000 -> mean 16,000, sd sqrt(2 x 2,000^2 / 1) = 2,828;
    // 110 and 100 -> 105 ± 7.07; 3,800 and 4,200 -> 4,000 ± 283; 340 and 330 -> 335 ± 7.07.
    assertEquals("| mean ± sd of 2: none (a force per arc file) | 16,000 ± 2,828 | 105 ± 7 "
        + "| 4,000 ± 283 | | | 335 ± 7 |", KvJournalPart.meanRow(rounds, false));
    // one per back-end: 20,000 ± 1,414; 85 ± 7; 5,000 ± 424; 250 ± 28.
    assertEquals("| mean ± sd of 2: one per back-end | 20,000 ± 1,414 | 85 ± 7 | 5,000 ± 424 "
        + "| | | 250 ± 28 |", KvJournalPart.meanRow(rounds, true));
  }

  @Test
  void fawnDs_splitMergeAndSequentialWrite_meanSdBesideTheBest() {
    Map<String, Map<String, String>> results = new LinkedHashMap<>();
    for (String engine : List.of(FawnDsEngine.NAME, RocksDbEngine.NAME, BdbJeEngine.NAME)) {
      results.put(engine, new LinkedHashMap<>(Map.of("engine", engine)));
    }
    Map<String, String> fawn = results.get(FawnDsEngine.NAME);
    for (String step : List.of("copy", "split", "merge")) {
      fawn.put(step + ".mbps", "530");
      fawn.put(step + ".mbps-runs", "500, 512, 530");
      fawn.put(step + ".mbps-mean", "514.000000");
      fawn.put(step + ".mbps-sd", "15.099669");
    }
    // 400, 410, 450 MB/s: mean 420, squared deviations 400 + 100 + 900 = 1,400, sd 26.5.
    String md = FawnDsReport.render(results, 450, List.of(400.0, 410.0, 450.0), 1000, 1000, 200,
        "2026-11-29T12:00:00Z", "./fawn bench-kv 1000", "test machine", 1, 2);
    assertTrue(md.contains("the best of 3 runs (400, 410, 450 MB/s; mean ± sd 420 ± 26 MB/s)"),
        md);
    assertTrue(md.contains("mean ± sd: copy 514 ± 15, split 514 ± 15, merge 514 ± 15 MB/s)"), md);
  }
}

package org.fawnpack.energy.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LedgerStoreTest {
  @TempDir
  Path dir;

  private static final ContainerRecord RUNNING = new ContainerRecord(
      "container_1700000000000_0001_01_000002", "application_1700000000000_0001", "TASK", 2, 2048,
      1_700_000_001_000L, -1, 123_456_789L, 23_456_789L, 42, 3, false);
  private static final ContainerRecord FINISHED = new ContainerRecord(
      "container_1700000000000_0002_01_000001", "application_1700000000000_0002",
      "APPLICATION_MASTER", 1, 1024, 1_700_000_000_000L, 1_700_000_050_000L,
      Long.MAX_VALUE / 3, 0, 50, 0, true);
  private static final LedgerState STATE = new LedgerState(999_999_999_999L, 5_000L, 7_000L,
      List.of(RUNNING, FINISHED));

  private List<String> filesIn(Path directory) throws IOException {
    try (Stream<Path> files = Files.list(directory)) {
      return files.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  void saveThenLoad_sameState() throws IOException {
    LedgerStore store = new LedgerStore(dir);
    store.save(STATE);
    assertEquals(Optional.of(STATE), store.load());
    assertEquals(Optional.of(STATE), new LedgerStore(dir).load(), "a new store reads it too");
  }

  @Test
  void saveThenLoad_emptyLedger_sameState() throws IOException {
    LedgerStore store = new LedgerStore(dir);
    LedgerState empty = new LedgerState(0, 0, 0, List.of());
    store.save(empty);
    assertEquals(Optional.of(empty), store.load());
  }

  @Test
  void load_noCheckpoint_empty() throws IOException {
    assertEquals(Optional.empty(), new LedgerStore(dir).load());
  }

  @Test
  void saveThenRestore_ledgerState_survives() throws IOException {
    EnergyLedger ledger = new EnergyLedger();
    ledger.open("c1", "application_1_0001", "TASK", 1, 512, 0, 1_000);
    ledger.book(new Interval(0, 1_000_000_000L, 7_000_001, 3, java.util.Map.of(), false, false));
    LedgerStore store = new LedgerStore(dir);
    store.save(ledger.state());
    EnergyLedger restored = new EnergyLedger();
    restored.restore(store.load().orElseThrow(), 5);
    assertEquals(ledger.energyOf("c1"), restored.energyOf("c1"));
    assertEquals(7_000_001, restored.meteredMicrojoules());
  }

  @Test
  void save_createsDirectoryAndLeavesNoTemporaryFile() throws IOException {
    Path nested = dir.resolve("a/b/fawn_energy");
    LedgerStore store = new LedgerStore(nested);
    store.save(STATE);
    assertEquals(List.of(LedgerStore.FILE_NAME), filesIn(nested));
    store.save(new LedgerState(1, 1, 0, List.of()));
    assertEquals(List.of(LedgerStore.FILE_NAME), filesIn(nested), "overwritten, no leftovers");
    assertEquals(Optional.of(new LedgerState(1, 1, 0, List.of())), store.load());
  }

  @Test
  void save_writeFails_previousCheckpointIntact() throws IOException {
    LedgerStore store = new LedgerStore(dir);
    store.save(STATE);
    // Block the temporary file's name with a non-empty directory: the write itself fails.
    Path blocker = dir.resolve(LedgerStore.FILE_NAME + ".tmp");
    Files.createDirectories(blocker.resolve("x"));
    assertThrows(IOException.class, () -> store.save(new LedgerState(1, 1, 0, List.of())));
    assertEquals(Optional.of(STATE), store.load());
  }

  private Path writeCheckpoint(List<String> lines) throws IOException {
    Path file = dir.resolve(LedgerStore.FILE_NAME);
    Files.write(file, lines, StandardCharsets.UTF_8);
    return file;
  }

  private List<String> goodLines() throws IOException {
    new LedgerStore(dir).save(STATE);
    return new ArrayList<>(Files.readAllLines(dir.resolve(LedgerStore.FILE_NAME)));
  }

  private void assertDamaged(List<String> lines, int lineNumber) throws IOException {
    Path file = writeCheckpoint(lines);
    IOException e = assertThrows(IOException.class, () -> new LedgerStore(dir).load());
    assertTrue(e.getMessage().contains(file.toString()), "names the file: " + e.getMessage());
    assertTrue(e.getMessage().contains("line " + lineNumber), "names line " + lineNumber + ": "
        + e.getMessage());
  }

  @Test
  void load_damagedNumber_namesFileAndLine() throws IOException {
    List<String> lines = goodLines();
    assertEquals("# fawn-energy ledger v1", lines.get(0));
    assertTrue(lines.get(4).contains(",123456789,"), lines.get(4));
    lines.set(4, lines.get(4).replace(",123456789,", ",12x456789,"));
    assertDamaged(lines, 5);
  }

  @Test
  void load_truncatedLine_namesFileAndLine() throws IOException {
    List<String> lines = goodLines();
    String line = lines.get(4);
    lines.set(4, line.substring(0, line.length() / 2)); // a crash mid-line (pre-rename writers)
    assertDamaged(lines, 5);
  }

  @Test
  void load_damagedTotal_namesFileAndLine() throws IOException {
    List<String> lines = goodLines();
    lines.set(1, "metered,");
    assertDamaged(lines, 2);
  }

  @Test
  void load_damagedFlag_namesFileAndLine() throws IOException {
    List<String> lines = goodLines();
    assertTrue(lines.get(5).endsWith(",true"), lines.get(5));
    lines.set(5, lines.get(5).substring(0, lines.get(5).length() - 4) + "ture");
    assertDamaged(lines, 6);
  }

  @Test
  void load_unknownRecord_namesFileAndLine() throws IOException {
    List<String> lines = goodLines();
    lines.add(3, "contianer,oops");
    assertDamaged(lines, 4);
  }

  @Test
  void load_blankLine_namesFileAndLine() throws IOException {
    List<String> lines = goodLines();
    lines.add(2, "");
    assertDamaged(lines, 3);
  }

  @Test
  void load_wrongHeader_refused() throws IOException {
    List<String> lines = goodLines();
    lines.set(0, "# fawn-energy ledger v2");
    Path file = writeCheckpoint(lines);
    IOException e = assertThrows(IOException.class, () -> new LedgerStore(dir).load());
    assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
    assertTrue(e.getMessage().contains("v2"), e.getMessage());
  }

  @Test
  void load_emptyFile_refused() throws IOException {
    Path file = writeCheckpoint(List.of());
    IOException e = assertThrows(IOException.class, () -> new LedgerStore(dir).load());
    assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
  }

  @Test
  void load_missingTotals_refused() throws IOException {
    List<String> lines = goodLines();
    lines.remove(2); // node_idle
    Path file = writeCheckpoint(lines);
    IOException e = assertThrows(IOException.class, () -> new LedgerStore(dir).load());
    assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
  }
}

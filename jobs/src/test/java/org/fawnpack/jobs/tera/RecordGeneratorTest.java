package org.fawnpack.jobs.tera;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.examples.terasort.GenSort;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Our generator against the stock gensort (hadoop-mapreduce-examples 3.4.2) byte for byte. */
class RecordGeneratorTest {

  @TempDir
  Path dir;

  @ParameterizedTest
  @CsvSource({"0, 20000", "1, 1", "12345678901, 3000", "4294967295, 300", "9223372036854770000, 50"})
  void generate_rows_sameBytesAndChecksumAsStockGensort(long first, int rows) throws Exception {
    Path file = dir.resolve("stock-" + first);
    String stockChecksum = runStockGensort(first, rows, file);
    byte[] stock = Files.readAllBytes(file);

    RecordGenerator generator = new RecordGenerator();
    generator.seek(first);
    byte[] ours = new byte[rows * SortRecord.BYTES];
    for (int i = 0; i < rows; i++) {
      generator.next(ours, i * SortRecord.BYTES);
    }
    assertArrayEquals(stock, ours);
    assertEquals(stockChecksum, generator.checksum().toString());
    assertEquals(first + rows, generator.nextRow());
  }

  /** Runs stock gensort -c (its public entry point) and returns the checksum it prints. */
  private static String runStockGensort(long first, int rows, Path file) throws Exception {
    PrintStream original = System.out;
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
    try {
      GenSort.main(new String[] {"-c", "-b" + first, Integer.toString(rows), file.toString()});
    } finally {
      System.setOut(original);
    }
    return printed.toString(StandardCharsets.UTF_8).trim();
  }
}

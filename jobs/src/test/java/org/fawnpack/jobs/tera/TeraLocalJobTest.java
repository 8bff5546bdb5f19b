package org.fawnpack.jobs.tera;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * teragen → terasort → teravalidate in the local job runner, checked by reading the files here:
 * every record once, sorted over the part files, and teravalidate's verdicts on good and broken
 * data.
 */
class TeraLocalJobTest {
  private static final int ROWS = 20_000;

  @TempDir
  Path dir;

  private static Configuration localConf() {
    Configuration conf = new Configuration();
    conf.set("fs.defaultFS", "file:///");
    conf.set("mapreduce.framework.name", "local");
    conf.setBoolean("fawn.energy.metering", false);
    return conf;
  }

  private static byte[] partsInOrder(Path dir) throws Exception {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path part : files.filter(p -> p.getFileName().toString().startsWith("part-")).sorted()
          .toList()) {
        all.write(Files.readAllBytes(part));
      }
    }
    return all.toByteArray();
  }

  @Test
  void teragenTerasortTeravalidate_local_sortsAndValidates() throws Exception {
    String gen = dir.resolve("gen").toString();
    String sorted = dir.resolve("sorted").toString();
    Configuration conf = localConf();
    conf.setInt("mapreduce.job.maps", 3);
    TeraGen teragen = new TeraGen(new PrintStream(new ByteArrayOutputStream(), true,
        StandardCharsets.UTF_8));
    assertEquals(0, ToolRunner.run(conf, teragen, new String[] {Integer.toString(ROWS), gen}));
    Checksum128 generated = TeraGen.checksum(teragen.lastJob().getCounters());

    Configuration sortConf = localConf();
    sortConf.setInt("mapreduce.job.reduces", 4);
    sortConf.setInt(TeraSortConfig.SAMPLE_SIZE.name(), 2_000);
    assertEquals(0, ToolRunner.run(sortConf, new TeraSort(), new String[] {gen, sorted}));

    // The oracle: the generated records sorted here by an unsigned compare of the whole key.
    byte[] input = partsInOrder(Path.of(gen));
    assertEquals(ROWS * SortRecord.BYTES, input.length);
    List<byte[]> records = new ArrayList<>();
    Checksum128 crcSum = new Checksum128();
    CRC32 crc = new CRC32();
    for (int i = 0; i < ROWS; i++) {
      byte[] r = Arrays.copyOfRange(input, i * 100, i * 100 + 100);
      records.add(r);
      crc.reset();
      crc.update(r);
      crcSum.add(crc.getValue());
    }
    assertEquals(crcSum, generated, "teragen's checksum counter");
    records.sort((a, b) -> Arrays.compareUnsigned(a, 0, 10, b, 0, 10));
    byte[] output = partsInOrder(Path.of(sorted));
    assertEquals(input.length, output.length);
    for (int i = 0; i < ROWS; i++) {
      assertEquals(0, Arrays.compareUnsigned(records.get(i), 0, 10, output, i * 100, i * 100 + 10),
          "key of record " + i);
    }

    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    TeraValidate validate = new TeraValidate(new PrintStream(printed, true,
        StandardCharsets.UTF_8));
    assertEquals(0, ToolRunner.run(localConf(), validate, new String[] {"--rows",
        Integer.toString(ROWS), "--checksum", generated.toString(), sorted,
        dir.resolve("report").toString()}), printed.toString(StandardCharsets.UTF_8));
    assertEquals(generated, validate.report().checksum());
    assertEquals(4, validate.report().files());

    // The unsorted input is not sorted: misorders reported with file and offset, exit 3.
    printed.reset();
    assertEquals(TeraValidate.EXIT_INVALID, ToolRunner.run(localConf(), validate,
        new String[] {gen, dir.resolve("report2").toString()}));
    String text = printed.toString(StandardCharsets.UTF_8);
    assertTrue(validate.report().misordered() > 0);
    assertTrue(text.contains("misorder in file:") && text.contains("part-m-00000 offset "), text);
    assertTrue(text.contains("INVALID"), text);

    // A missing part file: sorted, but rows and checksum do not match.
    Files.delete(Path.of(sorted, "part-r-00002"));
    assertEquals(TeraValidate.EXIT_INVALID, ToolRunner.run(localConf(), validate,
        new String[] {"--rows", Integer.toString(ROWS), "--checksum", generated.toString(),
            sorted, dir.resolve("report3").toString()}));
    assertEquals(0, validate.report().misordered());
    assertEquals(2, validate.problems().size(), validate.problems().toString());
  }

  @ParameterizedTest
  @CsvSource({"''", "'--rows'", "'--rows x in out'", "'--checksum zz in out'",
      "'--bogus 1 in out'", "'in'"})
  void teravalidate_badArguments_exit2WithUsage(String args) throws Exception {
    PrintStream original = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      String[] argv = args.isEmpty() ? new String[0] : args.split(" ");
      assertEquals(2, ToolRunner.run(localConf(), new TeraValidate(), argv));
    } finally {
      System.setErr(original);
    }
    assertTrue(captured.toString(StandardCharsets.UTF_8).contains("[--rows N] [--checksum HEX]"));
  }

  @ParameterizedTest
  @CsvSource({"''", "'0 out'", "'ten out'", "'5'"})
  void teragen_badArguments_exit2(String args) throws Exception {
    PrintStream original = System.err;
    System.setErr(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    try {
      String[] argv = args.isEmpty() ? new String[0] : args.split(" ");
      assertEquals(2, ToolRunner.run(localConf(), new TeraGen(), argv));
    } finally {
      System.setErr(original);
    }
  }

  @Test
  void terasort_badSampleSize_exit2() throws Exception {
    Path in = Files.createDirectories(dir.resolve("in"));
    Files.write(in.resolve("data"), new byte[200]);
    Configuration conf = localConf();
    conf.set(TeraSortConfig.SAMPLE_SIZE.name(), "0");
    PrintStream original = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      assertEquals(2, ToolRunner.run(conf, new TeraSort(), new String[] {in.toString(),
          dir.resolve("out").toString()}));
    } finally {
      System.setErr(original);
    }
    assertTrue(captured.toString(StandardCharsets.UTF_8).contains(
        "fawn.jobs.terasort.sample.size = 0 is invalid: must be 1..2147483647"));
  }

  @Test
  void terasortKeys_theirFormerNames_stillRead() {
    Configuration conf = new Configuration(false);
    conf.set("fawn.terasort.sample.size", "1234");
    conf.set("fawn.terasort.size-sort-buffer", "false");
    assertEquals(1234, TeraSortConfig.sampleSize(conf));
    assertEquals(false, TeraSortConfig.sizeSortBuffer(conf));
    assertEquals(TeraSortConfig.SAMPLE_SPLITS.defaultValue(), TeraSortConfig.sampleSplits(conf));
  }
}

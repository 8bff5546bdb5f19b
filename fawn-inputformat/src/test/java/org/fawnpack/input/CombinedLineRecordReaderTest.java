package org.fawnpack.input;

import static org.fawnpack.input.InputTestSupport.job;
import static org.fawnpack.input.InputTestSupport.localConf;
import static org.fawnpack.input.InputTestSupport.multiset;
import static org.fawnpack.input.InputTestSupport.naiveLines;
import static org.fawnpack.input.InputTestSupport.randomLine;
import static org.fawnpack.input.InputTestSupport.randomText;
import static org.fawnpack.input.InputTestSupport.readAll;
import static org.fawnpack.input.InputTestSupport.splits;
import static org.fawnpack.input.InputTestSupport.values;
import static org.fawnpack.input.InputTestSupport.writeBzip2;
import static org.fawnpack.input.InputTestSupport.writeGzip;
import static org.fawnpack.input.InputTestSupport.writeText;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.GZIPInputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.input.CombineFileSplit;
import org.fawnpack.input.InputTestSupport.CountingReporter;
import org.fawnpack.input.InputTestSupport.Line;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

class CombinedLineRecordReaderTest {

  @TempDir
  java.nio.file.Path tmp;

  private Path in() {
    return new Path(tmp.resolve("in").toUri());
  }

  /** Writes a mix of plain, gzip and bzip2 files; returns every line they hold (the oracle). */
  private List<String> writeMixedInput(Random random) throws IOException {
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      java.nio.file.Path file = writeText(tmp.resolve("in/small/s" + i + ".txt"),
          randomText(random, 200 + random.nextInt(2000), i % 3 == 0));
      expected.addAll(naiveLines(file));
    }
    // Large enough to be cut into many chunks, so lines straddle chunk boundaries.
    java.nio.file.Path big = writeText(tmp.resolve("in/big.txt"),
        randomText(random, 300_000, true));
    expected.addAll(naiveLines(big));
    java.nio.file.Path gz = writeGzip(tmp.resolve("in/z/logs.gz"),
        randomText(random, 60_000, true));
    try (InputStream unzipped = new GZIPInputStream(Files.newInputStream(gz))) {
      expected.addAll(naiveLines(new String(unzipped.readAllBytes(), StandardCharsets.UTF_8)));
    }
    String bzText = randomText(random, 60_000, false);
    writeBzip2(tmp.resolve("in/z/logs.bz2"), bzText);
    expected.addAll(naiveLines(bzText));
    writeText(tmp.resolve("in/empty.txt"), "");
    writeText(tmp.resolve("in/_SUCCESS"), "not a line of input\n");
    return expected;
  }

  @ParameterizedTest
  @ValueSource(strings = {"fixed", "one-per-vcore"})
  void readAll_plainGzipAndBzip2Files_sameLinesAsNaiveRead(String policy) throws Exception {
    List<String> expected = writeMixedInput(new Random(4242));
    Configuration conf = localConf();
    conf.set(FawnInputConfig.POLICY.name(), policy);
    conf.set(FawnInputConfig.MAX_SPLIT_BYTES.name(), "16k");
    conf.set(FawnInputConfig.MIN_SPLIT_BYTES.name(), "1k");
    conf.set(FawnInputConfig.VCORES.name(), "3");
    FawnCombineTextInputFormat format = new FawnCombineTextInputFormat();
    List<CombineFileSplit> splits = splits(format, job(conf, in()));
    assertTrue(splits.size() > 1, "fixture should give several splits");
    CountingReporter reporter = new CountingReporter();

    List<Line> lines = readAll(format, splits, conf, reporter);

    assertEquals(multiset(expected), multiset(values(lines)));
    assertEquals(expected.size(), lines.size());
    // Each file counts once however many chunks it was cut into: the files of the fixture.
    long files = splits.stream().flatMap(s -> java.util.Arrays.stream(s.getPaths()))
        .distinct().count();
    assertTrue(files < splits.stream().mapToInt(CombineFileSplit::getNumPaths).sum(),
        "fixture should cut at least one file into chunks");
    assertEquals(files, reporter.value(FawnInputCounter.FILES_READ));
    assertEquals(0, reporter.value(FawnInputCounter.CORRUPT_FILES_SKIPPED));
    assertEquals(storedBytesOfVisibleFiles(tmp.resolve("in")),
        reporter.value(FawnInputCounter.BYTES_READ));
  }

  /** What the files occupy on disk, hidden ones left out: what BYTES_READ must add up to. */
  private static long storedBytesOfVisibleFiles(java.nio.file.Path dir) throws Exception {
    try (var files = java.nio.file.Files.walk(dir)) {
      return files.filter(java.nio.file.Files::isRegularFile)
          .filter(f -> !f.getFileName().toString().startsWith("_")
              && !f.getFileName().toString().startsWith("."))
          .mapToLong(f -> f.toFile().length()).sum();
    }
  }

  @Test
  void readAll_textKeys_areByteOffsetsWithinTheFile() throws Exception {
    Random random = new Random(99);
    Map<Long, Integer> lineStarts = new HashMap<>(); // offset -> how many lines start there
    for (int i = 0; i < 5; i++) {
      byte[] bytes = randomText(random, 5000, true).getBytes(StandardCharsets.UTF_8);
      Files.createDirectories(tmp.resolve("in"));
      Files.write(tmp.resolve("in/f" + i), bytes);
      for (long start : lineStarts(bytes)) {
        lineStarts.merge(start, 1, Integer::sum);
      }
    }
    Configuration conf = localConf();
    conf.set(FawnInputConfig.POLICY.name(), "fixed");
    conf.set(FawnInputConfig.MAX_SPLIT_BYTES.name(), "2k");
    FawnCombineTextInputFormat format = new FawnCombineTextInputFormat();

    List<Line> lines = readAll(format, splits(format, job(conf, in())), conf,
        new CountingReporter());

    Map<Long, Integer> keys = new HashMap<>();
    for (Line line : lines) {
      keys.merge(Long.parseLong(line.key()), 1, Integer::sum);
    }
    assertEquals(lineStarts, keys);
  }

  /**
   * Start offsets of the lines of a file as a line reader splits it: after "\n", "\r\n" or a lone
   * "\r"; no line starts at the very end of the file.
   */
  private static List<Long> lineStarts(byte[] bytes) {
    List<Long> starts = new ArrayList<>();
    int i = 0;
    while (i < bytes.length) {
      starts.add((long) i);
      while (i < bytes.length && bytes[i] != '\n' && bytes[i] != '\r') {
        i++;
      }
      if (i < bytes.length && bytes[i] == '\r') {
        i++;
        if (i < bytes.length && bytes[i] == '\n') {
          i++;
        }
      } else if (i < bytes.length) {
        i++;
      }
    }
    return starts;
  }

  @Test
  void readAll_fileLineFormat_keysNameTheFileAndOffsetOfEachLine() throws Exception {
    Random random = new Random(7);
    Map<String, String> expected = new HashMap<>(); // "file:offset" -> line
    for (int i = 0; i < 12; i++) {
      java.nio.file.Path file = tmp.resolve("in/d" + (i % 3) + "/file-" + i + ".log");
      byte[] bytes = randomText(random, i == 0 ? 100_000 : 3000, true)
          .getBytes(StandardCharsets.UTF_8);
      Files.createDirectories(file.getParent());
      Files.write(file, bytes);
      String text = new String(bytes, StandardCharsets.UTF_8);
      List<String> fileLines = naiveLines(text);
      List<Long> starts = lineStarts(bytes);
      assertEquals(fileLines.size(), starts.size(), "oracle disagrees with itself");
      for (int l = 0; l < starts.size(); l++) {
        expected.put("file:" + file.toAbsolutePath() + ":" + starts.get(l), fileLines.get(l));
      }
    }
    // Compressed files: offsets are positions in the decompressed text, as in TextInputFormat.
    for (String name : new String[] {"c.gz", "c.bz2"}) {
      java.nio.file.Path file = tmp.resolve("in/d0/" + name);
      String text = randomText(random, 30_000, true);
      if (name.endsWith(".gz")) {
        writeGzip(file, text);
      } else {
        writeBzip2(file, text);
      }
      List<String> fileLines = naiveLines(text);
      List<Long> starts = lineStarts(text.getBytes(StandardCharsets.UTF_8));
      for (int l = 0; l < starts.size(); l++) {
        expected.put("file:" + file.toAbsolutePath() + ":" + starts.get(l), fileLines.get(l));
      }
    }
    Configuration conf = localConf();
    conf.set(FawnInputConfig.POLICY.name(), "fixed");
    conf.set(FawnInputConfig.MAX_SPLIT_BYTES.name(), "8k");
    FawnCombineFileLineInputFormat format = new FawnCombineFileLineInputFormat();

    List<Line> lines = readAll(format, splits(format, job(conf, in())), conf,
        new CountingReporter());

    Map<String, String> actual = new HashMap<>();
    for (Line line : lines) {
      String previous = actual.put(line.key(), line.value());
      assertEquals(null, previous, () -> "line read twice: " + line);
    }
    assertEquals(expected, actual);
  }

  @Test
  void readAll_fileLineFormat_keyIsAFreshValueNotAliasedAcrossFiles() throws Exception {
    writeText(tmp.resolve("in/a.txt"), "a1\na2\n");
    writeText(tmp.resolve("in/b.txt"), "b1\n");
    Configuration conf = localConf();
    conf.set(FawnInputConfig.VCORES.name(), "1");
    FawnCombineFileLineInputFormat format = new FawnCombineFileLineInputFormat();
    List<CombineFileSplit> splits = splits(format, job(conf, in()));
    assertEquals(1, splits.size());
    TaskAttemptContext context = InputTestSupport.taskContext(conf, new CountingReporter());
    Map<String, List<String>> byFile = new HashMap<>();
    try (RecordReader<FileLineKey, Text> reader =
        format.createRecordReader(splits.get(0), context)) {
      reader.initialize(splits.get(0), context);
      while (reader.nextKeyValue()) {
        FileLineKey key = reader.getCurrentKey();
        byFile.computeIfAbsent(new Path(key.file()).getName(), f -> new ArrayList<>())
            .add(key.offset() + "=" + reader.getCurrentValue());
      }
    }
    assertEquals(Map.of("a.txt", List.of("0=a1", "3=a2"), "b.txt", List.of("0=b1")), byFile);
  }

  @Test
  void readAll_lineLengthCap_skipsLongLinesLikeLineRecordReader() throws Exception {
    Random random = new Random(10);
    int cap = 10;
    List<String> expected = new ArrayList<>();
    for (int f = 0; f < 8; f++) {
      StringBuilder text = new StringBuilder();
      int lineCount = 1 + random.nextInt(40);
      for (int l = 0; l < lineCount; l++) {
        String line = randomShortLine(random);
        boolean last = l == lineCount - 1;
        String end = last && random.nextBoolean() ? "" : random.nextInt(3) == 0 ? "\r\n" : "\n";
        text.append(line).append(end);
        // LineRecordReader keeps a line only if it consumed fewer bytes than the cap, terminator
        // included; longer ones are skipped whole.
        boolean isALine = !line.isEmpty() || !end.isEmpty(); // "" unterminated is no line
        if (isALine && InputTestSupport.utf8Length(line) + end.length() < cap) {
          expected.add(line);
        }
      }
      if (f % 4 == 3) {
        writeGzip(tmp.resolve("in/f" + f + ".gz"), text.toString());
      } else {
        writeText(tmp.resolve("in/f" + f + ".txt"), text.toString());
      }
    }
    assertTrue(expected.size() > 20, "fixture should keep some lines");
    Configuration conf = localConf();
    conf.setInt("mapreduce.input.linerecordreader.line.maxlength", cap);
    conf.set(FawnInputConfig.VCORES.name(), "2");
    FawnCombineTextInputFormat format = new FawnCombineTextInputFormat();

    List<Line> lines = readAll(format, splits(format, job(conf, in())), conf,
        new CountingReporter());

    assertEquals(multiset(expected), multiset(values(lines)));
  }

  private static String randomShortLine(Random random) {
    String[] pieces = {"a", "bb", "é", "日", "😀", " ", "xyz", "0123456789"};
    int n = random.nextInt(6);
    StringBuilder line = new StringBuilder();
    for (int i = 0; i < n; i++) {
      line.append(pieces[random.nextInt(pieces.length)]);
    }
    return line.toString();
  }

  @Test
  void readAll_customRecordDelimiter_isHonoured() throws Exception {
    writeText(tmp.resolve("in/a.txt"), "one|two\n|three|");
    writeGzip(tmp.resolve("in/b.gz"), "four|five");
    Configuration conf = localConf();
    conf.set("textinputformat.record.delimiter", "|");
    conf.set(FawnInputConfig.VCORES.name(), "1");
    FawnCombineTextInputFormat format = new FawnCombineTextInputFormat();

    List<Line> lines = readAll(format, splits(format, job(conf, in())), conf,
        new CountingReporter());

    assertEquals(multiset(List.of("one", "two\n", "three", "four", "five")),
        multiset(values(lines)));
  }

  /** Ways a gzip file can be damaged. */
  enum Damage {
    /** A valid gzip header, then bytes that are not deflate data. */
    GARBAGE_AFTER_HEADER,
    /** A valid gzip stream cut off half-way. */
    TRUNCATED,
    /** Not gzip at all, though named .gz. */
    NOT_GZIP
  }

  /** Writes the damaged file; returns the lines of the text it was meant to hold. */
  private List<String> writeCorruptGzip(java.nio.file.Path file, Damage damage, Random random)
      throws IOException {
    String text = randomText(random, 200_000, false);
    byte[] good = InputTestSupport.gzip(text.getBytes(StandardCharsets.UTF_8));
    byte[] bytes = switch (damage) {
      case GARBAGE_AFTER_HEADER -> {
        byte[] b = Arrays.copyOf(good, 10 + 4096);
        Arrays.fill(b, 10, b.length, (byte) 0xFF); // block type 11: reserved, invalid
        yield b;
      }
      case TRUNCATED -> Arrays.copyOf(good, good.length / 2);
      case NOT_GZIP -> "this is plain text, not gzip\n".repeat(50).getBytes(StandardCharsets.UTF_8);
    };
    Files.createDirectories(file.getParent());
    Files.write(file, bytes);
    return naiveLines(text);
  }

  @ParameterizedTest
  @EnumSource(Damage.class)
  void readAll_corruptGzip_failsNamingTheFile(Damage damage) throws Exception {
    Random random = new Random(damage.ordinal());
    writeText(tmp.resolve("in/good.txt"), randomText(random, 1000, false));
    java.nio.file.Path bad = tmp.resolve("in/broken-" + damage + ".gz");
    writeCorruptGzip(bad, damage, random);
    Configuration conf = localConf();
    conf.set(FawnInputConfig.VCORES.name(), "1");
    FawnCombineTextInputFormat format = new FawnCombineTextInputFormat();
    List<CombineFileSplit> splits = splits(format, job(conf, in()));

    CorruptInputException e = assertThrows(CorruptInputException.class,
        () -> readAll(format, splits, conf, new CountingReporter()));

    assertTrue(e.getMessage().contains(bad.toAbsolutePath().toString()), e.getMessage());
    assertTrue(e.getMessage().contains(FawnInputConfig.SKIP_CORRUPT.name()), e.getMessage());
    assertNotNull(e.file());
    assertEquals(bad.toAbsolutePath().toString(), e.file().toUri().getPath());
    assertNotNull(e.getCause());
  }

  @ParameterizedTest
  @EnumSource(Damage.class)
  void readAll_corruptGzipWithSkipCorrupt_readsOtherFilesFullyAndCountsTheSkip(Damage damage)
      throws Exception {
    Random random = new Random(100 + damage.ordinal());
    Map<String, List<String>> expectedByFile = new HashMap<>();
    List<Path> inputs = new ArrayList<>(); // in this order, so the corrupt file is in the middle
    for (int i = 0; i < 6; i++) {
      String text = randomText(random, 20_000, true);
      java.nio.file.Path file = i % 2 == 0
          ? writeGzip(tmp.resolve("in/good-" + i + ".gz"), text)
          : writeText(tmp.resolve("in/good-" + i + ".txt"), text);
      expectedByFile.put(file.toAbsolutePath().toString(), naiveLines(text));
      inputs.add(new Path(file.toUri()));
    }
    java.nio.file.Path bad = tmp.resolve("in/broken.gz");
    List<String> meant = writeCorruptGzip(bad, damage, random);
    inputs.add(3, new Path(bad.toUri()));
    Configuration conf = localConf();
    conf.set(FawnInputConfig.VCORES.name(), "1");
    conf.set(FawnInputConfig.SKIP_CORRUPT.name(), "true");
    FawnCombineFileLineInputFormat format = new FawnCombineFileLineInputFormat();
    List<CombineFileSplit> splits = splits(format, job(conf, inputs.toArray(new Path[0])));
    assertEquals(1, splits.size());
    assertEquals(bad.toAbsolutePath().toString(), splits.get(0).getPath(3).toUri().getPath(),
        "fixture: the corrupt file should be read between good gzip and plain files");
    CountingReporter reporter = new CountingReporter();

    List<Line> lines = readAll(format, splits, conf, reporter);

    Map<String, List<String>> actualByFile = new HashMap<>();
    for (Line line : lines) {
      String file = new Path(line.key().substring(0, line.key().lastIndexOf(':'))).toUri()
          .getPath();
      actualByFile.computeIfAbsent(file, f -> new ArrayList<>()).add(line.value());
    }
    List<String> fromBad = actualByFile.remove(bad.toAbsolutePath().toString());
    assertEquals(expectedByFile, actualByFile);
    // Whatever was decoded before the damage is kept: a prefix of the lines it was meant to hold.
    if (fromBad != null) {
      assertTrue(fromBad.size() < meant.size(), "corrupt file read in full?");
      assertEquals(meant.subList(0, fromBad.size()), fromBad);
    }
    if (damage == Damage.TRUNCATED) {
      assertNotNull(fromBad, "the intact first half of a truncated file should be read");
    } else {
      assertEquals(null, fromBad, "lines from a file that cannot be decoded at all");
    }
    assertEquals(7, reporter.value(FawnInputCounter.FILES_READ));
    assertEquals(1, reporter.value(FawnInputCounter.CORRUPT_FILES_SKIPPED));
    assertEquals(storedBytesOfVisibleFiles(tmp.resolve("in")) - bad.toFile().length(),
        reporter.value(FawnInputCounter.BYTES_READ), "the skipped file's bytes do not count");
  }

  @Test
  void initialize_skipCorruptNotABoolean_rejectedNamingTheKey() throws Exception {
    writeText(tmp.resolve("in/a.txt"), "a\n");
    Configuration conf = localConf();
    conf.set(FawnInputConfig.VCORES.name(), "1");
    conf.set(FawnInputConfig.SKIP_CORRUPT.name(), "yes");
    FawnCombineTextInputFormat format = new FawnCombineTextInputFormat();
    CombineFileSplit split = splits(format, job(conf, in())).get(0);
    TaskAttemptContext context = InputTestSupport.taskContext(conf, new CountingReporter());
    RecordReader<?, Text> reader = format.createRecordReader(split, context);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> reader.initialize(split, context));
    assertTrue(e.getMessage().contains(FawnInputConfig.SKIP_CORRUPT.name()), e.getMessage());
  }

  @Test
  void nextKeyValue_uncompressedFileDeletedAfterSplitting_failsWithTheIoError() throws Exception {
    java.nio.file.Path file = writeText(tmp.resolve("in/vanishing.txt"), randomLine(new Random(1), 5)
        + "\n");
    Configuration conf = localConf();
    conf.set(FawnInputConfig.VCORES.name(), "1");
    conf.set(FawnInputConfig.SKIP_CORRUPT.name(), "true"); // only compressed files are ever skipped
    FawnCombineTextInputFormat format = new FawnCombineTextInputFormat();
    List<CombineFileSplit> splits = splits(format, job(conf, in()));
    Files.delete(file);
    IOException e = assertThrows(IOException.class,
        () -> readAll(format, splits, conf, new CountingReporter()));
    assertTrue(!(e instanceof CorruptInputException), "an unreadable plain file is not corrupt");
  }
}

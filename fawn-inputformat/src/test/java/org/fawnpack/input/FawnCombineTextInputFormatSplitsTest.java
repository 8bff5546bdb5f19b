package org.fawnpack.input;

import static org.fawnpack.input.InputTestSupport.job;
import static org.fawnpack.input.InputTestSupport.localConf;
import static org.fawnpack.input.InputTestSupport.randomText;
import static org.fawnpack.input.InputTestSupport.splits;
import static org.fawnpack.input.InputTestSupport.writeBzip2;
import static org.fawnpack.input.InputTestSupport.writeGzip;
import static org.fawnpack.input.InputTestSupport.writeText;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.lib.input.CombineFileSplit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FawnCombineTextInputFormatSplitsTest {

  @TempDir
  java.nio.file.Path tmp;

  /** A chunk of a split: file, offset, length. */
  private record Chunk(String file, long offset, long length) {}

  private static List<Chunk> chunks(List<CombineFileSplit> splits) {
    List<Chunk> chunks = new ArrayList<>();
    for (CombineFileSplit split : splits) {
      for (int i = 0; i < split.getNumPaths(); i++) {
        chunks.add(new Chunk(split.getPath(i).toUri().getPath(), split.getOffset(i),
            split.getLength(i)));
      }
    }
    return chunks;
  }

  private static String path(java.nio.file.Path file) {
    return file.toAbsolutePath().toString();
  }

  /** Asserts the chunks of each file tile [0, length) exactly, and names the files seen. */
  private static Map<String, Integer> assertFilesCoveredExactly(List<CombineFileSplit> splits,
      Map<String, Long> expectedLengths) {
    Map<String, List<Chunk>> byFile = new TreeMap<>();
    for (Chunk chunk : chunks(splits)) {
      byFile.computeIfAbsent(chunk.file(), f -> new ArrayList<>()).add(chunk);
    }
    assertEquals(new TreeMap<>(expectedLengths).keySet(), byFile.keySet(), "files in the splits");
    Map<String, Integer> chunkCounts = new HashMap<>();
    byFile.forEach((file, fileChunks) -> {
      fileChunks.sort(Comparator.comparingLong(Chunk::offset));
      long next = 0;
      for (Chunk chunk : fileChunks) {
        assertEquals(next, chunk.offset(), () -> "gap or overlap in " + file + ": " + fileChunks);
        assertTrue(chunk.length() > 0, () -> "empty chunk " + chunk);
        next += chunk.length();
      }
      assertEquals(expectedLengths.get(file), next, "bytes of " + file + " covered");
      chunkCounts.put(file, fileChunks.size());
    });
    return chunkCounts;
  }

  @Test
  void getSplits_thousandsOfTinyFiles_atMostOneSplitPerVcoreAndEveryFileOnce() throws Exception {
    Random random = new Random(2016);
    Map<String, Long> lengths = new HashMap<>();
    long total = 0;
    int largest = 0;
    for (int i = 0; i < 2000; i++) {
      java.nio.file.Path dir = tmp.resolve("in").resolve("d" + (i % 7));
      String text;
      do {
        text = randomText(random, 100 + random.nextInt(150), false);
      } while (InputTestSupport.utf8Length(text) < 100 || InputTestSupport.utf8Length(text) > 300);
      java.nio.file.Path file = writeText(dir.resolve("part-" + i + ".txt"), text);
      long length = Files.size(file);
      assertTrue(length >= 100 && length <= 300, "fixture file size " + length);
      lengths.put(path(file), length);
      total += length;
      largest = (int) Math.max(largest, length);
    }
    Configuration conf = localConf();
    conf.set(FawnInputConfig.VCORES.name(), "4");
    conf.set(FawnInputConfig.MIN_SPLIT_BYTES.name(), "1k");

    List<CombineFileSplit> splits = splits(new FawnCombineTextInputFormat(),
        job(conf, new Path(tmp.resolve("in").toUri())));

    // Every split but the last holds at least ceil(total / 4) bytes, so there are at most 4; and
    // with files this small next to the split size, exactly 4.
    long perVcore = (total + 3) / 4;
    assertTrue(splits.size() <= 4, "splits: " + splits.size());
    assertEquals(4, splits.size());
    for (CombineFileSplit split : splits) {
      assertTrue(split.getLength() < perVcore + largest, "split of " + split.getLength());
    }
    Map<String, Integer> chunkCounts = assertFilesCoveredExactly(splits, lengths);
    assertTrue(chunkCounts.values().stream().allMatch(n -> n == 1), "a tiny file was cut");
    assertEquals(total, splits.stream().mapToLong(CombineFileSplit::getLength).sum());
  }

  @Test
  void getSplits_oneHugeFileFixedPolicy_cutIntoChunksCoveringItExactly() throws Exception {
    Random random = new Random(20);
    java.nio.file.Path file = writeText(tmp.resolve("in/huge.txt"),
        randomText(random, 20 << 20, true));
    long length = Files.size(file);
    long max = 1 << 20;
    Configuration conf = localConf();
    conf.set(FawnInputConfig.POLICY.name(), "fixed");
    conf.set(FawnInputConfig.MAX_SPLIT_BYTES.name(), "1m");

    List<CombineFileSplit> splits = splits(new FawnCombineTextInputFormat(),
        job(conf, new Path(tmp.resolve("in").toUri())));

    int chunkCount = assertFilesCoveredExactly(splits, Map.of(path(file), length)).get(path(file));
    long ceil = (length + max - 1) / max;
    assertTrue(chunkCount >= ceil && chunkCount <= ceil + 1, "chunks: " + chunkCount);
    assertTrue(chunks(splits).stream().allMatch(c -> c.length() <= max), "chunk above the max");
    assertTrue(splits.size() >= ceil - 1 && splits.size() <= ceil + 1, "splits: " + splits.size());
  }

  @Test
  void getSplits_emptyInputDirectory_noSplits() throws Exception {
    Files.createDirectories(tmp.resolve("in"));
    Configuration conf = localConf();
    conf.set(FawnInputConfig.VCORES.name(), "4");
    assertEquals(List.of(), splits(new FawnCombineTextInputFormat(),
        job(conf, new Path(tmp.resolve("in").toUri()))));
  }

  @Test
  void getSplits_onlyHiddenAndEmptyFiles_noSplits() throws Exception {
    writeText(tmp.resolve("in/_SUCCESS"), "not input\n");
    writeText(tmp.resolve("in/.hidden"), "not input\n");
    writeText(tmp.resolve("in/empty.txt"), "");
    Configuration conf = localConf();
    conf.set(FawnInputConfig.VCORES.name(), "4");
    assertEquals(List.of(), splits(new FawnCombineTextInputFormat(),
        job(conf, new Path(tmp.resolve("in").toUri()))));
  }

  @Test
  void getSplits_missingInputPath_fails() throws Exception {
    Configuration conf = localConf();
    conf.set(FawnInputConfig.VCORES.name(), "4");
    var job = job(conf, new Path(tmp.resolve("no-such-dir").toUri()));
    IOException e = assertThrows(IOException.class,
        () -> new FawnCombineTextInputFormat().getSplits(job));
    assertTrue(e.getMessage().contains("no-such-dir"), e.getMessage());
  }

  @Test
  void getSplits_hiddenEmptyAndNestedFiles_readsNestedSkipsHiddenAndEmpty() throws Exception {
    Map<String, Long> expected = new HashMap<>();
    for (String name : new String[] {"a.txt", "sub/b.txt", "sub/deeper/c.txt", "sub/deeper/d.log"}) {
      java.nio.file.Path file = writeText(tmp.resolve("in").resolve(name), name + " line\n");
      expected.put(path(file), Files.size(file));
    }
    writeText(tmp.resolve("in/_SUCCESS"), "marker\n");
    writeText(tmp.resolve("in/.hidden"), "hidden\n");
    writeText(tmp.resolve("in/.part-0.crc"), "checksum\n");
    writeText(tmp.resolve("in/sub/_temporary/e.txt"), "in a hidden directory\n");
    writeText(tmp.resolve("in/sub/.staging/f.txt"), "in a hidden directory\n");
    writeText(tmp.resolve("in/empty.txt"), "");
    writeText(tmp.resolve("in/sub/deeper/empty2.txt"), "");
    Configuration conf = localConf();
    conf.set(FawnInputConfig.VCORES.name(), "2");
    conf.set(FawnInputConfig.MIN_SPLIT_BYTES.name(), "1");

    List<CombineFileSplit> splits = splits(new FawnCombineTextInputFormat(),
        job(conf, new Path(tmp.resolve("in").toUri())));

    assertFilesCoveredExactly(splits, expected);
  }

  @Test
  void getSplits_recursionNotRequestedByUser_stillRecursive() throws Exception {
    java.nio.file.Path file = writeText(tmp.resolve("in/x/y/z.txt"), "deep\n");
    Configuration conf = localConf();
    conf.setBoolean("mapreduce.input.fileinputformat.input.dir.recursive", false);
    conf.set(FawnInputConfig.VCORES.name(), "1");
    List<CombineFileSplit> splits = splits(new FawnCombineTextInputFormat(),
        job(conf, new Path(tmp.resolve("in").toUri())));
    assertFilesCoveredExactly(splits, Map.of(path(file), Files.size(file)));
  }

  @Test
  void getSplits_compressedFilesTinyMax_neverCut() throws Exception {
    Random random = new Random(77);
    java.nio.file.Path gz = writeGzip(tmp.resolve("in/logs.gz"), randomText(random, 400_000, true));
    java.nio.file.Path bz2 = writeBzip2(tmp.resolve("in/logs.bz2"),
        randomText(random, 400_000, false));
    java.nio.file.Path plain = writeText(tmp.resolve("in/plain.txt"),
        randomText(random, 20_000, false));
    assertTrue(Files.size(gz) > 20 * 1024 && Files.size(bz2) > 20 * 1024, "fixtures too small");
    Configuration conf = localConf();
    conf.set(FawnInputConfig.POLICY.name(), "fixed");
    conf.set(FawnInputConfig.MAX_SPLIT_BYTES.name(), "1k");

    List<CombineFileSplit> splits = splits(new FawnCombineTextInputFormat(),
        job(conf, new Path(tmp.resolve("in").toUri())));

    Map<String, Integer> chunkCounts = assertFilesCoveredExactly(splits, Map.of(
        path(gz), Files.size(gz), path(bz2), Files.size(bz2), path(plain), Files.size(plain)));
    assertEquals(1, chunkCounts.get(path(gz)), "gzip chunks");
    assertEquals(1, chunkCounts.get(path(bz2)), "bzip2 chunks");
    // The control: an uncompressed file of the same order of size is cut at the 1k maximum.
    assertTrue(chunkCounts.get(path(plain)) >= Files.size(plain) / 1024, "plain chunks");
  }

  @Test
  void getSplits_onePerVcoreTinyInput_singleSplitFromTheFloor() throws Exception {
    Random random = new Random(5);
    Map<String, Long> lengths = new HashMap<>();
    for (int i = 0; i < 50; i++) {
      java.nio.file.Path file = writeText(tmp.resolve("in/f" + i), randomText(random, 500, false));
      lengths.put(path(file), Files.size(file));
    }
    Configuration conf = localConf();
    conf.set(FawnInputConfig.VCORES.name(), "16"); // 25 KB over 16 vcores, but the 4m floor applies
    List<CombineFileSplit> splits = splits(new FawnCombineTextInputFormat(),
        job(conf, new Path(tmp.resolve("in").toUri())));
    assertEquals(1, splits.size());
    assertFilesCoveredExactly(splits, lengths);
  }

  @Test
  void getSplits_badPolicy_failsNamingTheKey() throws Exception {
    writeText(tmp.resolve("in/a.txt"), "a\n");
    Configuration conf = localConf();
    conf.set(FawnInputConfig.POLICY.name(), "per-file");
    var job = job(conf, new Path(tmp.resolve("in").toUri()));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new FawnCombineTextInputFormat().getSplits(job));
    assertTrue(e.getMessage().contains(FawnInputConfig.POLICY.name()), e.getMessage());
  }

  @Test
  void getSplits_calledTwice_listsAfreshEachTime() throws Exception {
    java.nio.file.Path first = writeText(tmp.resolve("in/a.txt"), "a\n");
    Configuration conf = localConf();
    conf.set(FawnInputConfig.VCORES.name(), "1");
    FawnCombineTextInputFormat format = new FawnCombineTextInputFormat();
    assertFilesCoveredExactly(splits(format, job(conf, new Path(tmp.resolve("in").toUri()))),
        Map.of(path(first), 2L));
    java.nio.file.Path second = writeText(tmp.resolve("in/b.txt"), "bb\n");
    assertFilesCoveredExactly(splits(format, job(conf, new Path(tmp.resolve("in").toUri()))),
        Map.of(path(first), 2L, path(second), 3L));
  }

  @Test
  void getSplits_localFileSystem_pathsAreQualified() throws Exception {
    writeText(tmp.resolve("in/a.txt"), "a\n");
    Configuration conf = localConf();
    conf.set(FawnInputConfig.VCORES.name(), "1");
    List<CombineFileSplit> splits = splits(new FawnCombineTextInputFormat(),
        job(conf, new Path(tmp.resolve("in").toUri())));
    Path p = splits.get(0).getPath(0);
    assertEquals(FileSystem.getLocal(conf).getUri().getScheme(), p.toUri().getScheme());
  }
}

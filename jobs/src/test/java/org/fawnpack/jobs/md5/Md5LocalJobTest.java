package org.fawnpack.jobs.md5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** md5gen and md5search in the local job runner, against a plain loop over MessageDigest. */
class Md5LocalJobTest {
  private static final int BITS = 12;

  @TempDir
  static Path tmp;
  private static Path generated;

  static Configuration localConf() {
    Configuration conf = new Configuration();
    conf.set("fs.defaultFS", "file:///");
    conf.set("mapreduce.framework.name", "local");
    return conf;
  }

  @BeforeAll
  static void generate() throws Exception {
    generated = tmp.resolve("values");
    assertEquals(0, ToolRunner.run(localConf(), new Md5Gen(),
        new String[] {"--bits", Integer.toString(BITS), "--maps", "3", generated.toString()}));
  }

  @Test
  void md5gen_writesEveryValueOnceBigEndianInEvenFiles() throws Exception {
    List<Path> parts;
    try (Stream<Path> files = Files.list(generated)) {
      parts = files.filter(p -> p.getFileName().toString().startsWith("part-")).sorted().toList();
    }
    assertEquals(3, parts.size());
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    for (Path part : parts) {
      long size = Files.size(part);
      assertTrue(size == 4 * 1365 || size == 4 * 1366, part + " " + size); // 4096 / 3
      all.write(Files.readAllBytes(part));
    }
    ByteBuffer expected = ByteBuffer.allocate(4 << BITS);
    for (int v = 0; v < 1 << BITS; v++) {
      expected.putInt(v);
    }
    assertArrayEquals(expected.array(), all.toByteArray());
  }

  @Test
  void md5search_findsThePreimageAMessageDigestLoopFinds() throws Exception {
    long value = 2_917; // any value of the space
    String target = md5Hex(value);
    Outcome run = search("found", target, "--bits", Integer.toString(BITS), "--maps", "4");
    assertEquals(0, run.exit(), run.printed());
    assertEquals(oracleLines(target), run.preimages());
    assertEquals(1L << BITS, run.tool().lastJob().getCounters()
        .findCounter(Md5Counter.TRANSFORMATIONS).getValue());
    assertTrue(run.printed().contains("md5search: preimage 2917 0x00000b65 " + target),
        run.printed());
  }

  @Test
  void md5search_withoutCombiner_sameResult() throws Exception {
    String target = md5Hex(4_095);
    Outcome run = search("nocombine", target, "--no-combiner");
    assertEquals(0, run.exit(), run.printed());
    assertEquals(oracleLines(target), run.preimages());
    assertEquals(1L << BITS, run.tool().lastJob().getCounters()
        .findCounter(org.apache.hadoop.mapreduce.TaskCounter.REDUCE_INPUT_RECORDS).getValue(),
        "without the combiner every pair reaches the reducers, as in the thesis");
  }

  @Test
  void md5search_hashOutsideTheSpace_none() throws Exception {
    String target = md5Hex(1L << BITS);
    Outcome run = search("outside", target);
    assertEquals(0, run.exit(), run.printed());
    assertEquals(List.of(), oracleLines(target));
    assertEquals(List.of(), run.preimages());
    assertTrue(run.printed().contains("none of the values hashes to " + target), run.printed());
  }

  @Test
  void md5search_bitsDisagreeWithInput_exit2() throws Exception {
    Outcome run = search("wrongbits", md5Hex(1), "--bits", "13");
    assertEquals(2, run.exit());
  }

  private record Outcome(int exit, String printed, Md5Search tool, List<String> preimages) {}

  private static Outcome search(String name, String target, String... options) throws Exception {
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    Md5Search tool = new Md5Search(new PrintStream(printed, true, StandardCharsets.UTF_8)) {};
    List<String> args = new ArrayList<>(List.of("--target", target));
    args.addAll(List.of(options));
    args.add(generated.toString());
    args.add(tmp.resolve("out-" + name).toString());
    int exit = ToolRunner.run(localConf(), tool, args.toArray(new String[0]));
    List<String> preimages = exit == 0 ? Md5Search.preimages(tool.lastJob()) : List.of();
    return new Outcome(exit, printed.toString(StandardCharsets.UTF_8), tool, preimages);
  }

  /** The output lines a correct search prints: every value whose MD5 is the target. */
  private static List<String> oracleLines(String target) throws Exception {
    List<String> lines = new ArrayList<>();
    for (long v = 0; v < 1L << BITS; v++) {
      if (md5Hex(v).equals(target)) {
        lines.add(v + "\t" + String.format("0x%08x", v) + "\t" + target);
      }
    }
    return lines;
  }

  static String md5Hex(long value) throws Exception {
    byte[] record = ByteBuffer.allocate(4).putInt((int) value).array();
    return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(record));
  }
}

package org.fawnpack.jobs.md5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Bad arguments of md5gen and md5search: usage, exit 2, the bad value named. */
class Md5ArgumentsTest {
  private static final String GOOD_TARGET = "f1d3ff8443297732862df21dc4e57262";

  @TempDir
  Path tmp;

  private record Outcome(int exit, String stderr) {}

  private static Outcome run(Tool tool, String... args) throws Exception {
    PrintStream original = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      int exit = ToolRunner.run(Md5LocalJobTest.localConf(), tool, args);
      return new Outcome(exit, captured.toString(StandardCharsets.UTF_8));
    } finally {
      System.setErr(original);
    }
  }

  @ParameterizedTest
  @CsvSource({
      "'--bits 0 OUT', '--bits 0 is out of range'",
      "'--bits 33 OUT', '--bits 33 is out of range'",
      "'--bits x OUT', '--bits must be a whole number, was ''x'''",
      "'--maps 0 OUT', '--maps must be at least 1, was 0'",
      "'OUT --bits', '--bits needs a value'",
      "'--target " + GOOD_TARGET + " OUT', 'unknown option --target'",
      "'--fast OUT', 'unknown option --fast'",
      "'OUT OUT', 'expected one output path, got 2'",
      "'', 'expected one output path, got 0'"})
  void md5gen_badArguments_exit2NamingTheProblem(String args, String message) throws Exception {
    String out = tmp.resolve("out").toString();
    String[] argv = args.isEmpty() ? new String[0] : args.replace("OUT", out).split(" ");
    Outcome outcome = run(new Md5Gen(), argv);
    assertEquals(2, outcome.exit(), outcome.stderr());
    assertTrue(outcome.stderr().contains(message), outcome.stderr());
    assertTrue(outcome.stderr().contains("Usage: hadoop jar fawn-jobs.jar md5gen"),
        outcome.stderr());
    assertTrue(Files.notExists(tmp.resolve("out")));
  }

  @Test
  void md5gen_badBitsByGenericOption_exit2NamingTheKey() throws Exception {
    Outcome outcome = run(new Md5Gen(), "-Dfawn.jobs.md5.bits=40", tmp.resolve("o").toString());
    assertEquals(2, outcome.exit());
    assertTrue(outcome.stderr().contains("fawn.jobs.md5.bits = 40 is invalid: must be 1..32"),
        outcome.stderr());
  }

  @Test
  void md5gen_badMapsByGenericOption_exit2NamingTheKey() throws Exception {
    Outcome outcome = run(new Md5Gen(), "-Dfawn.jobs.md5.maps=many", tmp.resolve("o").toString());
    assertEquals(2, outcome.exit());
    assertTrue(outcome.stderr().contains("fawn.jobs.md5.maps = many is invalid: must be 0..100000"),
        outcome.stderr());
  }

  @Test
  void md5gen_existingOutput_exit2() throws Exception {
    Files.createDirectories(tmp.resolve("there"));
    Outcome outcome = run(new Md5Gen(), tmp.resolve("there").toString());
    assertEquals(2, outcome.exit());
    assertTrue(outcome.stderr().contains("output directory already exists"), outcome.stderr());
  }

  @ParameterizedTest
  @CsvSource({
      "abc, 'target ''abc'' is not an MD5 hash: expected 32 hex digits, got 3 characters'",
      "f1d3ff8443297732862df21dc4e5726, 'got 31 characters'",
      "f1d3ff8443297732862df21dc4e572622, 'got 33 characters'",
      "g1d3ff8443297732862df21dc4e57262, "
          + "'target ''g1d3ff8443297732862df21dc4e57262'' is not an MD5 hash'"})
  void md5search_badTarget_exit2NamingTheValue(String target, String message) throws Exception {
    Path in = recordsFile(8);
    Outcome outcome = run(new Md5Search(), "--target", target, in.toString(),
        tmp.resolve("out").toString());
    assertEquals(2, outcome.exit(), outcome.stderr());
    assertTrue(outcome.stderr().contains(message), outcome.stderr());
    assertTrue(outcome.stderr().contains("Usage: hadoop jar fawn-jobs.jar md5search"),
        outcome.stderr());
  }

  @Test
  void md5search_missingTarget_exit2() throws Exception {
    Outcome outcome = run(new Md5Search(), recordsFile(8).toString(), tmp.resolve("o").toString());
    assertEquals(2, outcome.exit());
    assertTrue(outcome.stderr().contains("missing --target"), outcome.stderr());
  }

  @Test
  void md5search_inputNotWholeRecords_exit2NamingFileAndOffset() throws Exception {
    Path in = tmp.resolve("ragged.bin");
    Files.write(in, new byte[10]);
    Outcome outcome = run(new Md5Search(), "--target", GOOD_TARGET, in.toString(),
        tmp.resolve("o").toString());
    assertEquals(2, outcome.exit());
    assertTrue(outcome.stderr().contains("ragged.bin: length 10 bytes is not a whole number of"
        + " 4-byte records: a partial record of 2 byte(s) at offset 8"), outcome.stderr());
  }

  @Test
  void md5search_missingInput_exit2() throws Exception {
    Outcome outcome = run(new Md5Search(), "--target", GOOD_TARGET,
        tmp.resolve("nothing").toString(), tmp.resolve("o").toString());
    assertEquals(2, outcome.exit());
    assertTrue(outcome.stderr().contains("input path does not exist"), outcome.stderr());
  }

  private Path recordsFile(int records) throws Exception {
    Path file = tmp.resolve("records-" + records + ".bin");
    Files.write(file, new byte[4 * records]);
    return file;
  }
}

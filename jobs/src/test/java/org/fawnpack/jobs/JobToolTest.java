package org.fawnpack.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Argument handling only: every case here is rejected before a job is built or run. */
class JobToolTest {

  @TempDir
  java.nio.file.Path tmp;

  /** The jobs that take {@code <in>... <out>} (pi takes numbers; see PiArgumentsTest). */
  static Stream<Supplier<JobTool>> jobs() {
    return FawnJobs.JOBS.stream().filter(job -> job.get() instanceof FileJobTool);
  }

  private static Configuration localConf() {
    Configuration conf = new Configuration();
    conf.set("fs.defaultFS", "file:///");
    conf.set("mapreduce.framework.name", "local");
    return conf;
  }

  /** Exit code and what the tool printed on stderr. */
  private record Outcome(int exit, String stderr) {}

  private static Outcome run(JobTool tool, String... args) throws Exception {
    PrintStream original = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      int exit = ToolRunner.run(localConf(), tool, args);
      return new Outcome(exit, captured.toString(StandardCharsets.UTF_8));
    } finally {
      System.setErr(original);
    }
  }

  private String existingInput() throws Exception {
    java.nio.file.Path in = tmp.resolve("in");
    Files.createDirectories(in);
    Files.writeString(in.resolve("a.txt"), "a b c\n");
    return in.toUri().toString();
  }

  @Test
  void run_noArgumentsDefaultConf_exitsWithUsage() throws Exception {
    PrintStream original = System.err;
    System.setErr(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    try {
      assertEquals(2, ToolRunner.run(new WordCount2(), new String[] {}));
    } finally {
      System.setErr(original);
    }
  }

  @ParameterizedTest
  @MethodSource("jobs")
  void run_noArguments_exit2WithUsageNamingTheJob(Supplier<JobTool> job) throws Exception {
    JobTool tool = job.get();
    Outcome outcome = run(tool);
    assertEquals(JobTool.EXIT_USAGE, outcome.exit());
    assertEquals(2, outcome.exit());
    assertTrue(outcome.stderr().contains("Usage: hadoop jar fawn-jobs.jar " + tool.name()),
        outcome.stderr());
    assertTrue(outcome.stderr().contains("missing input and output paths"), outcome.stderr());
    assertNull(tool.lastJob(), "no job may be built for bad arguments");
  }

  @ParameterizedTest
  @MethodSource("jobs")
  void run_oneArgument_exit2MissingOutput(Supplier<JobTool> job) throws Exception {
    Outcome outcome = run(job.get(), existingInput());
    assertEquals(2, outcome.exit());
    assertTrue(outcome.stderr().contains("missing output path"), outcome.stderr());
  }

  @Test
  void run_onlyGenericOptions_exit2() throws Exception {
    Outcome outcome = run(new WordCount(), "-D", "some.key=value");
    assertEquals(2, outcome.exit());
    assertTrue(outcome.stderr().contains("missing input and output paths"), outcome.stderr());
  }

  @ParameterizedTest
  @MethodSource("jobs")
  void run_missingInputPath_exit2NamingIt(Supplier<JobTool> job) throws Exception {
    String missing = tmp.resolve("no-such-input").toUri().toString();
    Outcome outcome = run(job.get(), missing, tmp.resolve("out").toUri().toString());
    assertEquals(2, outcome.exit());
    assertTrue(outcome.stderr().contains("input path does not exist"), outcome.stderr());
    assertTrue(outcome.stderr().contains("no-such-input"), outcome.stderr());
    assertTrue(Files.notExists(tmp.resolve("out")), "output must not be created");
  }

  @Test
  void run_oneOfSeveralInputsMissing_exit2() throws Exception {
    Outcome outcome = run(new LogCount2(), existingInput(),
        tmp.resolve("gone").toUri().toString(), tmp.resolve("out").toUri().toString());
    assertEquals(2, outcome.exit());
    assertTrue(outcome.stderr().contains("gone"), outcome.stderr());
  }

  @Test
  void run_globMatchingNothing_exit2() throws Exception {
    existingInput();
    Outcome outcome = run(new WordCount2(), tmp.resolve("in").toUri() + "/*.gz",
        tmp.resolve("out").toUri().toString());
    assertEquals(2, outcome.exit());
    assertTrue(outcome.stderr().contains("input path does not exist"), outcome.stderr());
  }

  @ParameterizedTest
  @MethodSource("jobs")
  void run_existingOutputDirectory_exit2NamingIt(Supplier<JobTool> job) throws Exception {
    java.nio.file.Path out = Files.createDirectories(tmp.resolve("out-exists"));
    Outcome outcome = run(job.get(), existingInput(), out.toUri().toString());
    assertEquals(2, outcome.exit());
    assertTrue(outcome.stderr().contains("output directory already exists"), outcome.stderr());
    assertTrue(outcome.stderr().contains("out-exists"), outcome.stderr());
  }

  @Test
  void run_existingOutputAsPlainFile_exit2() throws Exception {
    java.nio.file.Path out = Files.writeString(tmp.resolve("out-file"), "x");
    Outcome outcome = run(new WordCount(), existingInput(), out.toUri().toString());
    assertEquals(2, outcome.exit());
    assertTrue(outcome.stderr().contains("already exists"), outcome.stderr());
  }

  @ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(strings = {"wordcount2", "logcount2"})
  void run_badCombinePolicy_exit2NamingKeyAndValue_beforeAnyJobRuns(String name)
      throws Exception {
    JobTool tool = name.equals("wordcount2") ? new WordCount2() : new LogCount2();
    Outcome outcome = run(tool, "-Dfawn.input.combine.policy=per-rack", existingInput(),
        tmp.resolve("out-policy").toUri().toString());
    assertEquals(2, outcome.exit());
    assertTrue(outcome.stderr().contains("fawn.input.combine.policy"), outcome.stderr());
    assertTrue(outcome.stderr().contains("per-rack"), outcome.stderr());
    assertNull(tool.lastJob(), "no job may be submitted with a bad setting");
    assertTrue(Files.notExists(tmp.resolve("out-policy")));
  }

  @Test
  void run_wordcount2BadTallyBudget_exit2NamingTheKey() throws Exception {
    Outcome outcome = run(new WordCount2(), "-Dfawn.jobs.wordcount.tally-bytes=lots",
        existingInput(), tmp.resolve("out-tally").toUri().toString());
    assertEquals(2, outcome.exit());
    assertTrue(outcome.stderr().contains("fawn.jobs.wordcount.tally-bytes = lots is invalid: must be a byte size"),
        outcome.stderr());
  }

  @Test
  void jobs_namesAreDistinctAndDescribed() {
    List<JobTool> tools = FawnJobs.JOBS.stream().map(Supplier::get).toList();
    assertEquals(List.of("wordcount", "wordcount2", "logcount", "logcount2", "pi", "teragen",
        "terasort", "teravalidate", "md5gen", "md5search", "kvcount", "kvload", "kvexport"),
        tools.stream().map(JobTool::name).toList());
    tools.forEach(t -> assertTrue(!t.description().isBlank(), t.name()));
  }
}

package org.fawnpack.jobs.pi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** pi in the local job runner: arguments, and the counts against a direct computation. */
class PiLocalJobTest {

  private static Configuration localConf() {
    Configuration conf = new Configuration();
    conf.set("fs.defaultFS", "file:///");
    conf.set("mapreduce.framework.name", "local");
    return conf;
  }

  @Test
  void run_localJob_sameCountAsDirectComputation() throws Exception {
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    Pi pi = new PiForTest(new PrintStream(printed, true, StandardCharsets.UTF_8));
    assertEquals(0, ToolRunner.run(localConf(), pi, new String[] {"3", "50000"}));

    var counters = pi.lastJob().getCounters();
    long expectedInside = 0;
    for (int map = 0; map < 3; map++) {
      expectedInside += HaltonCircle.countInside(map * 50_000L + 1, 50_000);
    }
    assertEquals(150_000, counters.findCounter(PiCounter.SAMPLES).getValue());
    assertEquals(expectedInside, counters.findCounter(PiCounter.INSIDE).getValue());
    String out = printed.toString(StandardCharsets.UTF_8);
    assertTrue(out.contains("Estimated value of Pi is "
        + Pi.estimate(expectedInside, 150_000).toPlainString()), out);
  }

  @Test
  void run_threeThreadsPerMap_sameCount() throws Exception {
    Pi pi = new PiForTest(new PrintStream(new ByteArrayOutputStream(), true,
        StandardCharsets.UTF_8));
    // 3 threads over 50,001 points per map: parts of 16,667 points, cut across chunk borders.
    assertEquals(0, ToolRunner.run(localConf(), pi,
        new String[] {"-Dmapreduce.map.cpu.vcores=3", "2", "50001"}));
    long expectedInside = HaltonCircle.countInside(1, 50_001)
        + HaltonCircle.countInside(50_002, 50_001);
    var counters = pi.lastJob().getCounters();
    assertEquals(100_002, counters.findCounter(PiCounter.SAMPLES).getValue());
    assertEquals(expectedInside, counters.findCounter(PiCounter.INSIDE).getValue());
  }

  @ParameterizedTest
  @CsvSource({"''", "'3'", "'0 10'", "'3 0'", "'x 10'", "'3 ten'", "'1 2 3'", "'100001 1'",
      "'100000 100000000000000'"})
  void badArguments_exit2WithUsage(String args) throws Exception {
    PrintStream original = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      String[] argv = args.isEmpty() ? new String[0] : args.split(" ");
      assertEquals(2, ToolRunner.run(localConf(), new Pi(), argv));
    } finally {
      System.setErr(original);
    }
    assertTrue(captured.toString(StandardCharsets.UTF_8).contains("<maps> <samples-per-map>"),
        captured.toString(StandardCharsets.UTF_8));
  }

  /** Pi with its output captured. */
  private static final class PiForTest extends Pi {
    PiForTest(PrintStream out) {
      super(out);
    }
  }
}

package org.fawnpack.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.JobCounter;
import org.fawnpack.jobs.FawnJobCounter;
import org.fawnpack.jobs.JobTool;
import org.fawnpack.jobs.LogCount2;
import org.fawnpack.jobs.LogCount;
import org.fawnpack.minicluster.JobOutputs;
import org.fawnpack.minicluster.MiniClusterExtension;
import org.fawnpack.minicluster.SampleInputs;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

@Order(1) // with the other classes on ClusterJobs.sharedCluster()
class LogCountJobsTest {

  @RegisterExtension
  static final MiniClusterExtension CLUSTER = ClusterJobs.sharedCluster();

  private static final Path INPUT = new Path("/in/logs");
  private static final int FILES = 10;
  private static Map<String, Long> expected;
  private static long expectedUnparsed;

  @BeforeAll
  static void writeInput() throws Exception {
    FileSystem fs = CLUSTER.cluster().fileSystem();
    new SampleInputs(7, 500).writeLogFiles(fs, INPUT, FILES, 30_000, i -> { });
    expected = new HashMap<>(Oracle.logCounts(fs, INPUT));
    Long unparsed = expected.remove("");
    expectedUnparsed = unparsed == null ? 0 : unparsed;
  }

  @Test
  void logcount2_matchesRegexOracle_andCountsUnparsedLines() throws Exception {
    LogCount2 tool = new LogCount2();
    assertEquals(0, ClusterJobs.run(CLUSTER.cluster(), tool,
        "-Dfawn.input.combine.min-split-bytes=1", INPUT.toString(), "/out/logcount2"));

    assertEquals(expected, JobOutputs.read(CLUSTER.cluster().fileSystem(), new Path("/out/logcount2")));
    Counters counters = tool.lastJob().getCounters();
    assertTrue(expectedUnparsed > 0, "the sample has stack traces and blank lines");
    assertEquals(expectedUnparsed, counters.findCounter(FawnJobCounter.UNPARSED_LINES).getValue());
    long maps = counters.findCounter(JobCounter.TOTAL_LAUNCHED_MAPS).getValue();
    assertTrue(maps < FILES, "combined splits need fewer maps than files: " + maps);
  }

  @Test
  void logcount_matchesRegexOracle_withOneMapPerFile() throws Exception {
    LogCount tool = new LogCount();
    assertEquals(0, ClusterJobs.run(CLUSTER.cluster(), tool, INPUT.toString(), "/out/logcount"));

    assertEquals(expected, JobOutputs.read(CLUSTER.cluster().fileSystem(), new Path("/out/logcount")));
    Counters counters = tool.lastJob().getCounters();
    assertEquals(expectedUnparsed, counters.findCounter(FawnJobCounter.UNPARSED_LINES).getValue());
    assertEquals(FILES, counters.findCounter(JobCounter.TOTAL_LAUNCHED_MAPS).getValue());
  }

  @Test
  void logcount2_existingOutputDirectory_isUsageErrorAndKeepsTheDirectory() throws Exception {
    FileSystem fs = CLUSTER.cluster().fileSystem();
    Path existing = new Path("/out/existing");
    fs.mkdirs(existing);
    fs.create(new Path(existing, "keep-me")).close();

    assertEquals(JobTool.EXIT_USAGE, ClusterJobs.run(CLUSTER.cluster(), new LogCount2(),
        INPUT.toString(), existing.toString()));
    assertTrue(fs.exists(new Path(existing, "keep-me")), "existing output must not be touched");
  }
}

package org.fawnpack.energy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.map.TokenCounterMapper;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.reduce.IntSumReducer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real word-count jobs on the LocalJobRunner, metered and not. Local mode has no NodeManager and
 * so no collector: every task must count itself unmetered, and the output must not change.
 */
class LocalJobEnergyTest {
  /** Word counts of the two input files, sorted as Text sorts them (bytes). */
  private static final String EXPECTED =
      "brown\t1\ndog\t1\nend\t1\nfox\t2\nlazy\t1\nquick\t1\nthe\t3\n";

  @TempDir
  static Path tmp;

  @BeforeAll
  static void input() throws Exception {
    // This JVM must not look like a YARN container with a collector.
    assumeTrue(System.getenv(EnergyProtocol.ENV_METADATA) == null);
    Files.createDirectories(tmp.resolve("in"));
    Files.writeString(tmp.resolve("in/a.txt"), "the quick brown fox\nthe lazy dog\n");
    Files.writeString(tmp.resolve("in/b.txt"), "the end\nfox\n");
  }

  private static Job run(String name, boolean metered, int reduces) throws Exception {
    Configuration conf = new Configuration();
    conf.set("mapreduce.framework.name", "local");
    conf.set("fs.defaultFS", "file:///");
    conf.set("hadoop.tmp.dir", tmp.resolve("hadoop-tmp").toString());
    conf.set("mapreduce.jobtracker.staging.root.dir", tmp.resolve("staging").toString());
    conf.set("mapreduce.cluster.local.dir", tmp.resolve("local").toString());
    // waitForCompletion polls every 5 s by default; local jobs take well under one
    conf.setInt(Job.COMPLETION_POLL_INTERVAL_KEY, 50);
    Job job = Job.getInstance(conf, name);
    job.setMapperClass(TokenCounterMapper.class);
    job.setCombinerClass(IntSumReducer.class);
    job.setReducerClass(IntSumReducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(IntWritable.class);
    job.setNumReduceTasks(reduces);
    FileInputFormat.addInputPath(job, new org.apache.hadoop.fs.Path(tmp.resolve("in").toUri()));
    FileOutputFormat.setOutputPath(job,
        new org.apache.hadoop.fs.Path(tmp.resolve(name).toUri()));
    if (metered) {
      EnergyMetering.enable(job);
      assertTrue(EnergyMetering.isEnabled(job.getConfiguration()));
    }
    assertTrue(job.waitForCompletion(false), name + " failed");
    return job;
  }

  /** The job's part files, name → content. */
  private static Map<String, String> parts(String name) throws Exception {
    Map<String, String> parts = new TreeMap<>();
    try (var files = Files.list(tmp.resolve(name))) {
      for (Path file : (Iterable<Path>) files::iterator) {
        String fileName = file.getFileName().toString();
        if (fileName.startsWith("part-")) {
          parts.put(fileName, Files.readString(file, StandardCharsets.UTF_8));
        }
      }
    }
    assertTrue(Files.exists(tmp.resolve(name).resolve("_SUCCESS")), name);
    return parts;
  }

  @Test
  void run_localMeteredJob_sameOutputAndEveryTaskUnmetered() throws Exception {
    Job plain = run("plain", false, 1);
    Job metered = run("metered", true, 1);

    assertEquals(Map.of("part-r-00000", EXPECTED), parts("plain"));
    assertEquals(parts("plain"), parts("metered"));

    Counters plainCounters = plain.getCounters();
    assertFalse(iterableContains(plainCounters.getGroupNames(), EnergyCounter.class.getName()),
        "an unmetered job has no energy counters");

    Counters counters = metered.getCounters();
    // two input files → two maps, plus one reduce
    assertEquals(3, counters.findCounter(EnergyCounter.TASKS_UNMETERED).getValue());
    assertEquals(0, counters.findCounter(EnergyCounter.TASKS_METERED).getValue());
    assertEquals(0, counters.findCounter(EnergyCounter.ENERGY_MILLIJOULES).getValue());
    assertEquals(0, counters.findCounter(EnergyCounter.SAMPLES).getValue());

    JobEnergySummary summary = JobEnergySummary.of(counters, 1000);
    assertFalse(summary.metered());
    Matcher m = Pattern.compile("of the (\\d+) tasks").matcher(summary.describe());
    assertTrue(m.find(), summary.describe());
    assertEquals(3, Integer.parseInt(m.group(1)));
  }

  @Test
  void run_localMeteredMapOnlyJob_countsItsMaps() throws Exception {
    Job job = run("map-only", true, 0);

    // each map writes its own file's words, one per token, through the wrapped format
    Map<String, String> parts = parts("map-only");
    assertEquals(2, parts.size(), parts.keySet().toString());
    TreeMap<String, Integer> words = new TreeMap<>();
    for (String content : parts.values()) {
      for (String line : content.split("\n")) {
        String[] kv = line.split("\t");
        words.merge(kv[0], Integer.parseInt(kv[1]), Integer::sum);
      }
    }
    assertEquals(Map.of("brown", 1, "dog", 1, "end", 1, "fox", 2, "lazy", 1, "quick", 1,
        "the", 3), words);
    assertEquals(2, job.getCounters().findCounter(EnergyCounter.TASKS_UNMETERED).getValue());
    assertEquals(0, job.getCounters().findCounter(EnergyCounter.TASKS_METERED).getValue());
  }

  private static boolean iterableContains(Iterable<String> names, String name) {
    for (String n : names) {
      if (n.equals(name)) {
        return true;
      }
    }
    return false;
  }
}

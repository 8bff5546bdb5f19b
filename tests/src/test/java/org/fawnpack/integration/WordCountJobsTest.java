package org.fawnpack.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.fawnpack.jobs.WordCount2;
import org.fawnpack.jobs.WordCount;
import org.fawnpack.minicluster.JobOutputs;
import org.fawnpack.minicluster.MiniClusterExtension;
import org.fawnpack.minicluster.SampleInputs;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

@Order(1) // with the other classes on ClusterJobs.sharedCluster()
class WordCountJobsTest {

  @RegisterExtension
  static final MiniClusterExtension CLUSTER = ClusterJobs.sharedCluster();

  private static final Path INPUT = new Path("/in/text");
  private static final int FILES = 12;
  private static Map<String, Long> expected;

  @BeforeAll
  static void writeInput() throws Exception {
    FileSystem fs = CLUSTER.cluster().fileSystem();
    new SampleInputs(42, 3000).writeTextFiles(fs, INPUT, FILES, 20_000, i -> { });
    expected = Oracle.wordCounts(fs, INPUT);
  }

  @Test
  void wordcount2_matchesPlainJavaCount_withOneMapPerVcoreAtMost() throws Exception {
    WordCount2 tool = new WordCount2();
    assertEquals(0, ClusterJobs.run(CLUSTER.cluster(), tool,
        "-Dfawn.input.combine.min-split-bytes=1", "-Dmapreduce.job.reduces=3", INPUT.toString(),
        "/out/wordcount2"));

    assertEquals(expected, JobOutputs.read(CLUSTER.cluster().fileSystem(), new Path("/out/wordcount2")));
    long maps = tool.lastJob().getCounters().findCounter(JobCounter.TOTAL_LAUNCHED_MAPS).getValue();
    assertTrue(maps >= 2 && maps <= CLUSTER.cluster().totalVcores(), "maps: " + maps);
    assertEquals(3, tool.lastJob().getCounters().findCounter(JobCounter.TOTAL_LAUNCHED_REDUCES)
        .getValue(), "the user's -D mapreduce.job.reduces");
  }

  @Test
  void wordcount2_matchesStockHadoopWordCountExample() throws Exception {
    Configuration conf = CLUSTER.cluster().clientConf();
    conf.set("mapreduce.job.jar", ClusterJobs.jobsJar());
    // The stock example's own classes, wired as its main() wires them (main calls System.exit).
    Job stock = Job.getInstance(conf, "stock wordcount");
    stock.setJarByClass(org.apache.hadoop.examples.WordCount.class);
    stock.setMapperClass(org.apache.hadoop.examples.WordCount.TokenizerMapper.class);
    stock.setCombinerClass(org.apache.hadoop.examples.WordCount.IntSumReducer.class);
    stock.setReducerClass(org.apache.hadoop.examples.WordCount.IntSumReducer.class);
    stock.setOutputKeyClass(Text.class);
    stock.setOutputValueClass(IntWritable.class);
    FileInputFormat.addInputPath(stock, INPUT);
    FileOutputFormat.setOutputPath(stock, new Path("/out/stock-wordcount"));
    assertTrue(stock.waitForCompletion(false));
    assertEquals(0, ClusterJobs.run(CLUSTER.cluster(), new WordCount2(), INPUT.toString(),
        "/out/wordcount2-vs-stock"));

    FileSystem fs = CLUSTER.cluster().fileSystem();
    assertEquals(JobOutputs.read(fs, new Path("/out/stock-wordcount")),
        JobOutputs.read(fs, new Path("/out/wordcount2-vs-stock")));
  }

  @Test
  void hadoopJar_wordcount2_runsOnTheClusterLikeTheHadoopCommand() throws Exception {
    long appsBefore = CLUSTER.cluster().resourceManager().getRMContext().getRMApps().size();
    HadoopCommand.Result result = HadoopCommand.hadoopJar(CLUSTER.cluster().clientConfDir(),
        "wordcount2", "-Dfawn.input.combine.min-split-bytes=1", INPUT.toString(),
        "/out/wordcount2-runjar");

    assertEquals(0, result.exitCode(), result.stderr());
    assertTrue(result.stdout().contains("wordcount2 succeeded"), result.stdout());
    // On the cluster, not in the client's local job runner: the ResourceManager ran it.
    assertEquals(appsBefore + 1,
        CLUSTER.cluster().resourceManager().getRMContext().getRMApps().size(), result.stdout());
    assertTrue(!result.stdout().contains("job_local") && !result.stderr().contains("job_local"),
        result.stdout());
    assertEquals(expected, JobOutputs.read(CLUSTER.cluster().fileSystem(),
        new Path("/out/wordcount2-runjar")));

    // The energy report, from another process too, finds the JobHistory server through the
    // written client configuration alone.
    Matcher submitted = Pattern.compile("submitted (job_\\d+_\\d+)")
        .matcher(result.stdout() + result.stderr());
    assertTrue(submitted.find(), "no job id in the output: " + result.stdout());
    HadoopCommand.Result report = HadoopCommand.hadoopJar(CLUSTER.cluster().clientConfDir(),
        "energy", "report", submitted.group(1));
    assertEquals(0, report.exitCode(), report.stderr());
    assertTrue(report.stdout().contains(submitted.group(1))
        && report.stdout().contains("wordcount2"), report.stdout());
  }

  @Test
  void wordcount_matchesPlainJavaCount_withOneMapPerFile() throws Exception {
    WordCount tool = new WordCount();
    assertEquals(0, ClusterJobs.run(CLUSTER.cluster(), tool, INPUT.toString(), "/out/wordcount"));

    assertEquals(expected, JobOutputs.read(CLUSTER.cluster().fileSystem(), new Path("/out/wordcount")));
    assertEquals(FILES,
        tool.lastJob().getCounters().findCounter(JobCounter.TOTAL_LAUNCHED_MAPS).getValue());
    // One reducer per vcore for tasks, as seed 003 ran it: this cluster's slaves less the
    // ApplicationMaster's vcore (it runs on them here: no master NodeManager).
    int forTasks = CLUSTER.cluster().totalVcores() - CLUSTER.cluster().clientConf().getInt(
        "yarn.app.mapreduce.am.resource.cpu-vcores", 1);
    assertEquals(forTasks, tool.lastJob().getCounters().findCounter(
        JobCounter.TOTAL_LAUNCHED_REDUCES).getValue());
    assertEquals(forTasks, CLUSTER.cluster().fileSystem().listStatus(new Path("/out/wordcount"),
        p -> p.getName().startsWith("part-r-")).length);
  }
}

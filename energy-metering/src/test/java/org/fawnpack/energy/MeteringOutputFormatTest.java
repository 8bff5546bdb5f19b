package org.fawnpack.energy;

import static org.fawnpack.energy.EnergyCounter.TASKS_METERED;
import static org.fawnpack.energy.EnergyCounter.TASKS_UNMETERED;
import static org.fawnpack.energy.TaskContexts.value;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.FileAlreadyExistsException;
import org.apache.hadoop.mapred.InvalidJobConfException;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.OutputFormat;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.lib.output.FileOutputCommitter;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.hadoop.mapreduce.task.JobContextImpl;
import org.fawnpack.energy.TaskContexts.CountersReporter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

class MeteringOutputFormatTest {
  @TempDir
  Path tmp;

  private static Configuration metered(Configuration conf) {
    conf.setClass(EnergyMetering.DELEGATE_KEY, TextOutputFormat.class, OutputFormat.class);
    return conf;
  }

  @Test
  void write_throughWrapper_committedLikeBareFormat() throws Exception {
    // This JVM is no YARN container: the wrapper's tasks find no collector, as in local mode.
    assumeTrue(System.getenv(EnergyProtocol.ENV_METADATA) == null);
    for (TaskType type : List.of(TaskType.MAP, TaskType.REDUCE)) {
      TaskAttemptID id = TaskContexts.attempt(type, 1, 0);
      Path bareOut = tmp.resolve("bare-" + type);
      TextOutputFormat<Text, Text> bare = new TextOutputFormat<>();
      OutputRuns.run(TaskContexts.context(OutputRuns.conf(bareOut), id, new CountersReporter()),
          bare::getRecordWriter, bare::getOutputCommitter);

      Path meteredOut = tmp.resolve("metered-" + type);
      CountersReporter reporter = new CountersReporter();
      MeteringOutputFormat<Text, Text> metering = new MeteringOutputFormat<>();
      List<OutputCommitter> committers = new ArrayList<>();
      OutputRuns.run(TaskContexts.context(metered(OutputRuns.conf(meteredOut)), id, reporter),
          metering::getRecordWriter, task -> {
            OutputCommitter committer = metering.getOutputCommitter(task);
            committers.add(committer);
            return committer;
          });

      SortedMap<String, byte[]> expected = OutputRuns.files(bareOut);
      SortedMap<String, byte[]> actual = OutputRuns.files(meteredOut);
      String part = type == TaskType.MAP ? "part-m-00001" : "part-r-00001";
      assertArrayEquals(OutputRuns.EXPECTED_TEXT.getBytes(StandardCharsets.UTF_8),
          expected.get(part), part);
      assertEquals(expected.keySet(), actual.keySet());
      expected.forEach((name, bytes) -> assertArrayEquals(bytes, actual.get(name), name));

      MeteringOutputCommitter committer =
          assertInstanceOf(MeteringOutputCommitter.class, committers.get(0));
      assertInstanceOf(FileOutputCommitter.class, committer.delegate());
      assertEquals(meteredOut.toString(), committer.getOutputPath().toUri().getPath());
      assertEquals(1, value(reporter.counters, TASKS_UNMETERED));
      assertEquals(0, value(reporter.counters, TASKS_METERED));
    }
  }

  @Test
  void checkOutputSpecs_isDelegates() throws Exception {
    Path existing = Files.createDirectory(tmp.resolve("existing"));
    JobContext exists = new JobContextImpl(metered(OutputRuns.conf(existing)), TaskContexts.JOB);
    assertThrows(FileAlreadyExistsException.class,
        () -> new MeteringOutputFormat<Text, Text>().checkOutputSpecs(exists));

    Configuration noOutput = metered(new Configuration());
    assertThrows(InvalidJobConfException.class, () -> new MeteringOutputFormat<Text, Text>()
        .checkOutputSpecs(new JobContextImpl(noOutput, TaskContexts.JOB)));

    JobContext fresh = new JobContextImpl(metered(OutputRuns.conf(tmp.resolve("new"))),
        TaskContexts.JOB);
    new MeteringOutputFormat<Text, Text>().checkOutputSpecs(fresh);
  }

  @Test
  void delegate_missing_illegalStateNamingKey() {
    assertDelegateRejected(OutputRuns.conf(tmp.resolve("out")), "null");
  }

  @Test
  void delegate_invalid_illegalStateNamingKey() {
    for (String value : List.of("java.lang.String", MeteringOutputFormat.class.getName(),
        "org.example.NoSuchOutputFormat")) {
      Configuration conf = OutputRuns.conf(tmp.resolve("out"));
      conf.set(EnergyMetering.DELEGATE_KEY, value);
      assertDelegateRejected(conf, value);
    }
  }

  private static void assertDelegateRejected(Configuration conf, String value) {
    TaskAttemptContext task = TaskContexts.context(conf, TaskContexts.attempt(TaskType.MAP, 0, 0),
        new CountersReporter());
    List<Executable> calls = List.of(
        () -> new MeteringOutputFormat<Text, Text>().getOutputCommitter(task),
        () -> new MeteringOutputFormat<Text, Text>().getRecordWriter(task),
        () -> new MeteringOutputFormat<Text, Text>().checkOutputSpecs(task));
    for (Executable call : calls) {
      IllegalStateException e = assertThrows(IllegalStateException.class, call, value);
      assertTrue(e.getMessage().contains(EnergyMetering.DELEGATE_KEY), e.getMessage());
      assertTrue(e.getMessage().contains(value), e.getMessage());
    }
  }

  @Test
  void workFile_inWrappersWorkPath() throws Exception {
    Configuration conf = metered(OutputRuns.conf(tmp.resolve("out")));
    TaskAttemptContext task = TaskContexts.context(conf, TaskContexts.attempt(TaskType.MAP, 2, 0),
        new CountersReporter());
    MeteringOutputFormat<Text, Text> metering = new MeteringOutputFormat<>();
    MeteringOutputCommitter committer =
        (MeteringOutputCommitter) metering.getOutputCommitter(task);
    committer.setupJob(task);
    committer.setupTask(task);
    metering.getRecordWriter(task).close(task);
    org.apache.hadoop.fs.Path workFile = new org.apache.hadoop.fs.Path(committer.getWorkPath(),
        FileOutputFormat.getUniqueFile(task, "part", ""));
    assertTrue(Files.exists(Path.of(workFile.toUri())), workFile.toString());
  }
}

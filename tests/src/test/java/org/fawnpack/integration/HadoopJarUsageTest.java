package org.fawnpack.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.fawnpack.jobs.FawnJobs;
import org.junit.jupiter.api.Test;

/** The command-line contract of fawn-jobs.jar, through RunJar, without a cluster. */
class HadoopJarUsageTest {

  @Test
  void noJobName_listsEveryJob_andExits2() throws Exception {
    HadoopCommand.Result result = HadoopCommand.hadoopJar(null);

    assertEquals(2, result.exitCode(), result.stderr());
    String listing = result.stdout() + result.stderr();
    // The names come from the tools themselves, so a job added to FawnJobs.JOBS is checked too;
    // the explicit list guards against the driver's list shrinking unnoticed.
    List<String> names = new ArrayList<>(FawnJobs.JOBS.stream().map(f -> f.get().name())
        .toList());
    assertEquals(List.of("wordcount", "wordcount2", "logcount", "logcount2", "pi", "teragen",
        "terasort", "teravalidate", "md5gen", "md5search", "kvcount", "kvload", "kvexport"), names);
    names.addAll(List.of("energy", "kvsnapshot", "profile"));
    for (String job : names) {
      assertTrue(listing.contains("  " + job + ": "), "missing " + job + " in:\n" + listing);
    }
  }

  @Test
  void unknownJob_exits2() throws Exception {
    HadoopCommand.Result result = HadoopCommand.hadoopJar(null, "no-such-job");

    assertEquals(2, result.exitCode(), result.stderr());
  }

  @Test
  void jobWithoutOutputPath_printsUsage_andExits2() throws Exception {
    HadoopCommand.Result result = HadoopCommand.hadoopJar(null, "wordcount2", "/only-input");

    assertEquals(2, result.exitCode(), result.stderr());
    assertTrue(result.stderr().contains("Usage: hadoop jar fawn-jobs.jar wordcount2"),
        result.stderr());
  }
}

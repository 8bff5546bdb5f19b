package org.fawnpack.jobs;

import java.util.List;
import java.util.function.Supplier;
import org.apache.hadoop.util.ProgramDriver;
import org.fawnpack.configs.ProfileTool;
import org.fawnpack.energy.report.EnergyReport;
import org.fawnpack.jobs.kv.KvCount;
import org.fawnpack.jobs.kv.KvExport;
import org.fawnpack.jobs.kv.KvLoad;
import org.fawnpack.jobs.md5.Md5Gen;
import org.fawnpack.jobs.md5.Md5Search;
import org.fawnpack.jobs.pi.Pi;
import org.fawnpack.jobs.tera.TeraGen;
import org.fawnpack.jobs.tera.TeraSort;
import org.fawnpack.jobs.tera.TeraValidate;
import org.fawnpack.kv.hadoop.KvSnapshotTool;

/**
 * The Main-Class of {@code fawn-jobs.jar}: a ProgramDriver, so
 * {@code hadoop jar fawn-jobs.jar <job> [generic options] <args>} runs a job and no job name
 * lists them all. Every job's own {@code main} runs it through ToolRunner.
 */
public final class FawnJobs {

  /** Every job in the jar. */
  public static final List<Supplier<JobTool>> JOBS = List.of(
      WordCount::new, WordCount2::new, LogCount::new, LogCount2::new, Pi::new,
      TeraGen::new, TeraSort::new, TeraValidate::new, Md5Gen::new, Md5Search::new,
      KvCount::new, KvLoad::new, KvExport::new);

  private FawnJobs() {}

  public static void main(String[] args) throws Throwable {
    ProgramDriver driver = new ProgramDriver();
    for (Supplier<JobTool> factory : JOBS) {
      JobTool job = factory.get();
      driver.addClass(job.name(), job.getClass(), job.description());
    }
    driver.addClass("energy", EnergyReport.class, "energy report <jobId> [--html <file>]: joules,"
        + " watts and work done per joule of a finished job (JobHistory counters + the energy"
        + " collectors' history files)");
    driver.addClass("kvsnapshot", KvSnapshotTool.class, "kvsnapshot --to DIR: an offline"
        + " snapshot of a FAWN-KV cluster (every arc's files from its tail) into DIR on HDFS,"
        + " for kvcount/kvexport --snapshot DIR (also ./fawn kv snapshot --to DIR)");
    driver.addClass("profile", ProfileTool.class, "profile render|validate|derive|diff|list:"
        + " per-node tuning profiles rendered into Hadoop configuration directories");
    // The driver returns -1 for a missing or unknown job name (after listing the jobs);
    // a job that ran has already exited with its own code.
    int rc = driver.run(args);
    System.exit(rc == 0 ? 0 : JobTool.EXIT_USAGE);
  }
}

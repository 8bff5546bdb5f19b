package org.fawnpack.demo;

import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.random.RandomGenerator;
import org.apache.hadoop.mapreduce.Counters;
import org.fawnpack.jobs.md5.Md5Gen;
import org.fawnpack.jobs.md5.Md5Search;
import org.fawnpack.jobs.pi.Pi;
import org.fawnpack.jobs.pi.PiCounter;
import org.fawnpack.jobs.tera.Checksum128;
import org.fawnpack.jobs.tera.TeraCounter;
import org.fawnpack.jobs.tera.TeraGen;
import org.fawnpack.jobs.tera.TeraSort;
import org.fawnpack.jobs.tera.TeraValidate;

/**
 * The rest of the jar's jobs for {@code ./fawn demo --all}, each row checked: teragen, then
 * terasort on its data and teravalidate on terasort's output against teragen's row count and
 * checksum; pi with every point counted; md5gen, then md5search for the MD5 of a value drawn at
 * random, which must find exactly that value. A job that fails (or whose check fails) is a failed
 * row; the jobs that need its output are skipped.
 */
final class AllJobsDemo {
  /** Eight maps fill the four 2-vcore slaves; 8 x 10^7 points: ~0.6 s of CPU at 7.5 ns each. */
  static final int PI_MAPS = 8;
  static final long PI_SAMPLES_PER_MAP = 10_000_000L;

  private static final String OUT = "/demo/out/";

  private final DemoJobRunner runner;
  private final PrintStream out;
  private final int teraRows;
  private final int md5Bits;
  private final RandomGenerator random;

  /** @param random draws md5search's value (injected so a test can fix it) */
  AllJobsDemo(DemoJobRunner runner, PrintStream out, DemoOptions options,
      RandomGenerator random) {
    this.runner = runner;
    this.out = out;
    this.teraRows = options.teraRows();
    this.md5Bits = options.md5Bits();
    this.random = random;
  }

  List<JobResult> run() throws Exception {
    List<JobResult> rows = new ArrayList<>();
    runTera(rows);
    rows.add(runPi());
    runMd5(rows);
    return rows;
  }

  private void runTera(List<JobResult> rows) throws Exception {
    TeraGen gen = new TeraGen();
    JobResult generated = runner.run(gen, WorkUnit.RECORDS_WRITTEN, Integer.toString(teraRows),
        OUT + "teragen");
    if (!generated.succeeded()) {
      rows.add(generated);
      skipped("terasort and teravalidate", "teragen");
      return;
    }
    Counters counters = gen.lastJob().getCounters();
    long written = counters.findCounter(TeraCounter.ROWS_GENERATED).getValue();
    Checksum128 checksum = TeraGen.checksum(counters);
    if (written != teraRows) {
      rows.add(generated.failed("wrote " + written + " rows, expected " + teraRows));
      skipped("terasort and teravalidate", "teragen");
      return;
    }
    rows.add(generated.checked(String.format(Locale.ROOT, "%,d rows of 100 bytes, checksum %s",
        written, checksum)));
    JobResult sorted = runner.run(new TeraSort(), WorkUnit.INPUT_RECORDS, OUT + "teragen",
        OUT + "terasort");
    rows.add(sorted);
    if (!sorted.succeeded()) {
      skipped("teravalidate", "terasort");
      return;
    }
    TeraValidate validate = new TeraValidate();
    JobResult validated = runner.run(validate, WorkUnit.INPUT_RECORDS, "--rows",
        Integer.toString(teraRows), "--checksum", checksum.toString(), OUT + "terasort",
        OUT + "teravalidate");
    rows.add(validateRow(validated, validate, checksum));
  }

  /** teravalidate's verdict on terasort's output: sorted, every row there, teragen's checksum. */
  private JobResult validateRow(JobResult row, TeraValidate validate, Checksum128 expected) {
    if (!validate.problems().isEmpty()) {
      return row.failed("terasort's output is INVALID: " + String.join("; ",
          validate.problems()));
    }
    if (!row.succeeded()) {
      return row;
    }
    return row.checked(String.format(Locale.ROOT, "terasort's output is sorted across %d files,"
        + " %,d rows, checksum %s = teragen's", validate.report().files(),
        validate.report().records(), expected));
  }

  private JobResult runPi() throws Exception {
    Pi pi = new Pi();
    // The ApplicationMasters run on the master by node label, so pi keeps its maps on the
    // slaves (no uber job) by itself: the table's row describes the wimpy nodes.
    JobResult row = runner.run(pi, WorkUnit.POINTS, Integer.toString(PI_MAPS),
        Long.toString(PI_SAMPLES_PER_MAP));
    if (!row.succeeded()) {
      return row;
    }
    Counters counters = pi.lastJob().getCounters();
    long points = counters.findCounter(PiCounter.SAMPLES).getValue();
    long expected = PI_MAPS * PI_SAMPLES_PER_MAP;
    if (points != expected) {
      return row.failed(String.format(Locale.ROOT, "counted %,d points, expected %,d", points,
          expected));
    }
    var estimate = Pi.estimate(counters.findCounter(PiCounter.INSIDE).getValue(), points);
    return row.checked(String.format(Locale.ROOT, "pi = %s (error %+.3e against Math.PI) from"
        + " %,d points", estimate.toPlainString(), estimate.doubleValue() - Math.PI, points));
  }

  private void runMd5(List<JobResult> rows) throws Exception {
    long values = 1L << md5Bits;
    JobResult generated = runner.run(new Md5Gen(), WorkUnit.RECORDS_WRITTEN, "--bits",
        Integer.toString(md5Bits), OUT + "md5gen");
    if (generated.succeeded() && generated.outputRecords() != values) {
      generated = generated.failed(String.format(Locale.ROOT, "wrote %,d values, expected 2^%d"
          + " = %,d", generated.outputRecords(), md5Bits, values));
    } else if (generated.succeeded()) {
      generated = generated.checked(String.format(Locale.ROOT, "all 2^%d = %,d values", md5Bits,
          values));
    }
    rows.add(generated);
    if (!generated.succeeded()) {
      skipped("md5search", "md5gen");
      return;
    }
    long value = random.nextLong(values);
    String target = md5Hex(value);
    out.printf("%nmd5search target: MD5(%d) = %s (the value drawn at random from 0 .. 2^%d - 1)"
        + "%n", value, target, md5Bits);
    Md5Search search = new Md5Search();
    JobResult searched = runner.run(search, WorkUnit.TRANSFORMATIONS, "--target", target,
        "--bits", Integer.toString(md5Bits), OUT + "md5gen", OUT + "md5search");
    if (searched.succeeded()) {
      String problem = md5Problem(value, target, values, searched.work(),
          Md5Search.preimages(search.lastJob()));
      searched = problem == null ? searched.checked(String.format(Locale.ROOT,
          "found %d, the drawn value, as the only preimage of %s among %,d MD5s", value, target,
          searched.work())) : searched.failed(problem);
    }
    rows.add(searched);
  }

  /**
   * Null when md5search hashed every value once and found exactly the drawn value (its output
   * lines are {@code value <TAB> 0x%08x <TAB> md5}); else what went wrong.
   */
  static String md5Problem(long value, String target, long values, long transformations,
      List<String> preimages) {
    if (transformations != values) {
      return String.format(Locale.ROOT, "computed %,d MD5s for %,d values", transformations,
          values);
    }
    String expected = value + "\t" + String.format(Locale.ROOT, "0x%08x", value) + "\t" + target;
    if (!preimages.equals(List.of(expected))) {
      return "expected the preimage " + value + " of " + target + ", found "
          + (preimages.isEmpty() ? "none" : preimages.stream()
              .map(l -> l.replace('\t', ' ')).toList());
    }
    return null;
  }

  /** MD5 of the value's 4 big-endian bytes, as md5gen writes it. */
  static String md5Hex(long value) {
    try {
      byte[] record = ByteBuffer.allocate(4).putInt((int) value).array();
      return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(record));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("This JVM has no MD5 MessageDigest (every Java SE has one)",
          e);
    }
  }

  private void skipped(String jobs, String failed) {
    out.printf("Skipping %s: %s failed.%n", jobs, failed);
  }
}

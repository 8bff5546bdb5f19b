package org.fawnpack.integration;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.util.ToolRunner;
import org.fawnpack.jobs.tera.TeraGen;
import org.fawnpack.jobs.tera.TeraSort;
import org.fawnpack.jobs.tera.TeraValidate;
import org.fawnpack.jobs.tera.TruncatedRecordException;
import org.fawnpack.minicluster.MiniClusterExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * teragen / terasort / teravalidate on a mini cluster, against the stock 3.4.2 tools in every
 * direction, with an independent check written here: the part files read in order are sorted,
 * and the records' CRC32s sum to the generated data's.
 */
@Order(1) // with the other classes on ClusterJobs.sharedCluster()
class TeraJobsTest {
  private static final int ROWS = 50_000;
  private static final Path STOCK_GEN = new Path("/tera/stock-gen");
  private static final Path OUR_GEN = new Path("/tera/our-gen");

  @RegisterExtension
  static final MiniClusterExtension CLUSTER = ClusterJobs.sharedCluster();

  private static Scan stockGenerated;
  private static String ourTeragenChecksum;

  @BeforeAll
  static void generateWithBothTools() throws Exception {
    Configuration conf = CLUSTER.cluster().clientConf();
    conf.setInt("mapreduce.job.maps", 3);
    assertEquals(0, ToolRunner.run(conf, new org.apache.hadoop.examples.terasort.TeraGen(),
        new String[] {Integer.toString(ROWS), STOCK_GEN.toString()}));
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    TeraGen ours = new TeraGen(new PrintStream(printed, true, StandardCharsets.UTF_8)) { };
    assertEquals(0, ClusterJobs.run(CLUSTER.cluster(), ours, "-Dmapreduce.job.maps=4",
        Integer.toString(ROWS), OUR_GEN.toString()));
    ourTeragenChecksum = printed.toString(StandardCharsets.UTF_8).lines()
        .filter(l -> l.startsWith("teragen checksum ")).findFirst().orElseThrow()
        .substring("teragen checksum ".length());
    stockGenerated = Scan.of(CLUSTER.cluster().fileSystem(), STOCK_GEN);
  }

  @Test
  void ourTeragen_writesTheStockBytes_andPrintsTheirChecksum() throws Exception {
    Scan ours = Scan.of(CLUSTER.cluster().fileSystem(), OUR_GEN);
    assertEquals(ROWS, stockGenerated.records);
    assertArrayEquals(stockGenerated.sha256, ours.sha256, "digest of the part files in order");
    assertEquals(stockGenerated.crcSumHex(), ourTeragenChecksum);
  }

  @Test
  void stockTeragenData_sortsWithOurTerasort_andStockTeravalidateAcceptsIt() throws Exception {
    TeraSort terasort = new TeraSort();
    Path sorted = new Path("/tera/ours-sorted");
    assertEquals(0, ClusterJobs.run(CLUSTER.cluster(), terasort, "-Dmapreduce.job.reduces=3",
        "-Dfawn.jobs.terasort.sample.size=5000", STOCK_GEN.toString(), sorted.toString()));
    assertEquals(3, terasort.lastJob().getCounters()
        .findCounter(JobCounter.TOTAL_LAUNCHED_REDUCES).getValue());

    FileSystem fs = CLUSTER.cluster().fileSystem();
    Scan result = Scan.of(fs, sorted);
    assertEquals(0, result.misordered, "order across the part files");
    assertEquals(ROWS, result.records);
    assertEquals(stockGenerated.crcSumHex(), result.crcSumHex());
    assertEquals(3, result.files);
    for (FileStatus part : fs.listStatus(sorted, p -> p.getName().startsWith("part-"))) {
      assertEquals(1, part.getReplication(), "fawn.jobs.terasort.output.replication default");
    }

    Path report = new Path("/tera/stock-validate-ours");
    assertEquals(0, ToolRunner.run(CLUSTER.cluster().clientConf(),
        new org.apache.hadoop.examples.terasort.TeraValidate(),
        new String[] {sorted.toString(), report.toString()}));
    List<String> lines = readLines(fs, new Path(report, "part-r-00000"));
    assertEquals(List.of("checksum\t" + stockGenerated.crcSumHex()), lines,
        "stock teravalidate: no error lines, the generated checksum");
  }

  @Test
  void ourTeragenData_sortsWithStockTerasort_andOurTeravalidateAcceptsIt() throws Exception {
    Configuration conf = CLUSTER.cluster().clientConf();
    conf.setInt("mapreduce.job.reduces", 3);
    Path sorted = new Path("/tera/stock-sorted");
    assertEquals(0, ToolRunner.run(conf, new org.apache.hadoop.examples.terasort.TeraSort(),
        new String[] {OUR_GEN.toString(), sorted.toString()}));
    assertEquals(0, Scan.of(CLUSTER.cluster().fileSystem(), sorted).misordered);

    TeraValidate validate = new TeraValidate(new PrintStream(new ByteArrayOutputStream(), true,
        StandardCharsets.UTF_8)) { };
    assertEquals(0, ClusterJobs.run(CLUSTER.cluster(), validate, "--rows",
        Integer.toString(ROWS), "--checksum", ourTeragenChecksum, sorted.toString(),
        "/tera/our-validate-stock"));
    assertEquals(ROWS, validate.report().records());
    assertEquals(ourTeragenChecksum, validate.report().checksum().toString());

    // The stock teragen output is not sorted: our teravalidate says so and exits 3.
    assertEquals(TeraValidate.EXIT_INVALID, ClusterJobs.run(CLUSTER.cluster(), validate,
        STOCK_GEN.toString(), "/tera/our-validate-unsorted"));
    assertTrue(validate.report().misordered() > 0);
    assertTrue(validate.report().examples().get(0).contains("part-m-00000 offset "),
        validate.report().examples().toString());
  }

  @Test
  void truncatedRecord_terasortFailsNamingFileAndOffset() throws Exception {
    FileSystem fs = CLUSTER.cluster().fileSystem();
    Path broken = new Path("/tera/broken");
    byte[] first = new byte[1000 * 100 + 42];
    try (InputStream in = fs.open(new Path(STOCK_GEN, "part-m-00000"))) {
      in.readNBytes(first, 0, first.length);
    }
    try (FSDataOutputStream out = fs.create(new Path(broken, "part-m-00000"))) {
      out.write(first);
    }
    TruncatedRecordException e = assertThrows(TruncatedRecordException.class,
        () -> ClusterJobs.run(CLUSTER.cluster(), new TeraSort(), broken.toString(),
            "/tera/broken-sorted"));
    assertTrue(e.getMessage().contains("/tera/broken/part-m-00000: truncated record at offset"
        + " 100000"), e.getMessage());
  }

  private static List<String> readLines(FileSystem fs, Path file) throws IOException {
    try (BufferedReader in = new BufferedReader(new InputStreamReader(fs.open(file),
        StandardCharsets.UTF_8))) {
      return in.lines().toList();
    }
  }

  /**
   * The test's own reading of a directory of sort-benchmark part files, in name order: records,
   * keys out of order (unsigned compare with the record before, across files), the sum of the
   * records' CRC32s, and a digest of all the bytes.
   */
  private static final class Scan {
    long records;
    long misordered;
    int files;
    long crcSum;
    byte[] sha256;

    String crcSumHex() {
      return Long.toHexString(crcSum);
    }

    static Scan of(FileSystem fs, Path dir) throws Exception {
      Scan scan = new Scan();
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      CRC32 crc = new CRC32();
      long sum = 0;
      byte[] previous = null;
      List<FileStatus> parts = new ArrayList<>(Arrays.asList(
          fs.listStatus(dir, p -> p.getName().startsWith("part-"))));
      parts.sort(null);
      byte[] record = new byte[100];
      for (FileStatus part : parts) {
        scan.files++;
        try (InputStream in = fs.open(part.getPath())) {
          int n;
          while ((n = in.readNBytes(record, 0, 100)) == 100) {
            if (previous != null && Arrays.compareUnsigned(record, 0, 10, previous, 0, 10) < 0) {
              scan.misordered++;
            }
            previous = Arrays.copyOf(record, 10);
            crc.reset();
            crc.update(record);
            sum += crc.getValue();
            digest.update(record);
            scan.records++;
          }
          assertEquals(0, n, part.getPath() + " ends inside a record");
        }
      }
      scan.crcSum = sum;
      scan.sha256 = digest.digest();
      return scan;
    }
  }
}

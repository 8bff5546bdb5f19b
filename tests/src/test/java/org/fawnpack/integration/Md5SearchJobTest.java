package org.fawnpack.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.fawnpack.jobs.md5.Md5Counter;
import org.fawnpack.jobs.md5.Md5Gen;
import org.fawnpack.jobs.md5.Md5Search;
import org.fawnpack.minicluster.MiniClusterExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** md5gen and md5search on a mini cluster, the hashes checked with java's MessageDigest. */
@Order(1) // with the other classes on ClusterJobs.sharedCluster()
class Md5SearchJobTest {
  private static final int BITS = 16;
  private static final Path VALUES = new Path("/md5/values");

  @RegisterExtension
  static final MiniClusterExtension CLUSTER = ClusterJobs.sharedCluster();

  @BeforeAll
  static void generate() throws Exception {
    assertEquals(0, ClusterJobs.run(CLUSTER.cluster(), new Md5Gen(), "--bits",
        Integer.toString(BITS), VALUES.toString()));
    FileSystem fs = CLUSTER.cluster().fileSystem();
    long bytes = 0;
    for (FileStatus part : fs.globStatus(new Path(VALUES, "part-*"))) {
      bytes += part.getLen();
    }
    assertEquals(4L << BITS, bytes, "md5gen writes every value as 4 bytes");
  }

  @Test
  void md5search_findsThePreimageOfARandomValueAndHashesEveryValueOnce() throws Exception {
    long seed = System.nanoTime();
    long value = new Random(seed).nextInt(1 << BITS);
    String target = md5Hex(value);
    Md5Search search = new Md5Search();
    assertEquals(0, ClusterJobs.run(CLUSTER.cluster(), search, "--target", target, "--bits",
        Integer.toString(BITS), VALUES.toString(), "/md5/found"));

    assertEquals(List.of(value + "\t" + String.format("0x%08x", value) + "\t" + target),
        Md5Search.preimages(search.lastJob()), "value " + value + " (seed " + seed + ")");
    assertEquals(1L << BITS, search.lastJob().getCounters()
        .findCounter(Md5Counter.TRANSFORMATIONS).getValue(), "one MD5 per value");
  }

  @Test
  void md5search_hashOfAValueOutsideTheSpace_findsNone() throws Exception {
    String target = md5Hex(1L << BITS); // the first value md5gen did not write
    Md5Search search = new Md5Search();
    assertEquals(0, ClusterJobs.run(CLUSTER.cluster(), search, "--target", target,
        VALUES.toString(), "/md5/none"));
    assertEquals(List.of(), Md5Search.preimages(search.lastJob()));
    assertEquals(1L << BITS, search.lastJob().getCounters()
        .findCounter(Md5Counter.TRANSFORMATIONS).getValue());
  }

  /** MD5 of the value's 4 big-endian bytes: the independent oracle. */
  private static String md5Hex(long value) throws Exception {
    byte[] record = ByteBuffer.allocate(4).putInt((int) value).array();
    return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(record));
  }
}

package org.fawnpack.input;

import static org.fawnpack.input.InputTestSupport.job;
import static org.fawnpack.input.InputTestSupport.localConf;
import static org.fawnpack.input.InputTestSupport.randomText;
import static org.fawnpack.input.InputTestSupport.splits;
import static org.fawnpack.input.InputTestSupport.writeText;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.lib.input.CombineFileSplit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FawnCombineSplitLocalityTest {

  @TempDir
  java.nio.file.Path tmp;

  private static Configuration locatedConf() {
    Configuration conf = localConf();
    conf.set("fs." + HostMappedFileSystem.SCHEME + ".impl", HostMappedFileSystem.class.getName());
    conf.setBoolean("fs." + HostMappedFileSystem.SCHEME + ".impl.disable.cache", true);
    return conf;
  }

  private Path located(java.nio.file.Path local) {
    return new Path(HostMappedFileSystem.SCHEME, null, local.toAbsolutePath().toString());
  }

  @Test
  void fixtureFileSystem_reportsTheConfiguredHost() throws Exception {
    java.nio.file.Path file = writeText(tmp.resolve("in/hostQ-1.txt"), "x\n");
    Configuration conf = locatedConf();
    FileSystem fs = located(file).getFileSystem(conf);
    assertEquals(HostMappedFileSystem.class, fs.getClass());
    var locations = fs.getFileBlockLocations(fs.getFileStatus(located(file)), 0, 2);
    assertEquals(List.of("hostQ"), List.of(locations[0].getHosts()));
  }

  @Test
  void getSplits_filesLocalToTwoHosts_eachSplitOnTheHostOfItsFiles() throws Exception {
    Random random = new Random(31);
    Map<String, String> hostOfFile = new HashMap<>();
    Map<String, Long> bytesOnHost = new HashMap<>();
    for (int i = 0; i < 40; i++) {
      String host = i % 3 == 0 ? "hostB" : "hostA"; // interleaved in the listing
      java.nio.file.Path file = writeText(tmp.resolve("in/sub" + (i % 2) + "/" + host + "-" + i),
          randomText(random, 300 + random.nextInt(3000), false));
      hostOfFile.put(file.toAbsolutePath().toString(), host);
      bytesOnHost.merge(host, Files.size(file), Long::sum);
    }
    Configuration conf = locatedConf();
    // Splits as large as the larger host's share: that host's files fill one node-local split;
    // the other host's files are left over and go, through its own rack, to one more split.
    long larger = Math.max(bytesOnHost.get("hostA"), bytesOnHost.get("hostB"));
    conf.set(FawnInputConfig.POLICY.name(), "fixed");
    conf.setLong(FawnInputConfig.MAX_SPLIT_BYTES.name(), larger);

    List<CombineFileSplit> splits = splits(new FawnCombineTextInputFormat(),
        job(conf, located(tmp.resolve("in"))));

    assertEquals(2, splits.size(), "one split per host");
    Set<String> hostsSeen = new HashSet<>();
    int files = 0;
    for (CombineFileSplit split : splits) {
      Set<String> hostsOfFiles = new HashSet<>();
      for (Path p : split.getPaths()) {
        assertEquals(HostMappedFileSystem.SCHEME, p.toUri().getScheme());
        hostsOfFiles.add(hostOfFile.get(p.toUri().getPath()));
        files++;
      }
      assertEquals(1, hostsOfFiles.size(), "a split mixes hosts: " + split);
      assertEquals(hostsOfFiles, Set.of(split.getLocations()), "locations of " + split);
      hostsSeen.addAll(hostsOfFiles);
    }
    assertEquals(Set.of("hostA", "hostB"), hostsSeen);
    assertEquals(40, files);
  }

  @Test
  void getSplits_onePerVcoreNodeLocalFiles_splitsGroupedByHost() throws Exception {
    // 4 hosts with 10 files of exactly 1000 bytes each; 4 vcores -> splits of 10 000 bytes.
    Map<String, String> hostOfFile = new HashMap<>();
    String[] hosts = {"hostA", "hostB", "hostC", "hostD"};
    for (int i = 0; i < 40; i++) {
      String host = hosts[i % hosts.length];
      java.nio.file.Path file = writeText(tmp.resolve("in/" + host + "-" + i + ".txt"),
          "x".repeat(999) + "\n");
      hostOfFile.put(file.toAbsolutePath().toString(), host);
    }
    Configuration conf = locatedConf();
    conf.set(FawnInputConfig.VCORES.name(), "4");
    conf.set(FawnInputConfig.MIN_SPLIT_BYTES.name(), "1");

    List<CombineFileSplit> splits = splits(new FawnCombineTextInputFormat(),
        job(conf, located(tmp.resolve("in"))));

    assertEquals(4, splits.size());
    Set<String> hostsSeen = new HashSet<>();
    for (CombineFileSplit split : splits) {
      assertEquals(10_000, split.getLength());
      Set<String> hostsOfFiles = new HashSet<>();
      for (Path p : split.getPaths()) {
        hostsOfFiles.add(hostOfFile.get(p.toUri().getPath()));
      }
      assertEquals(1, hostsOfFiles.size(), "a split mixes hosts: " + split);
      assertEquals(hostsOfFiles, Set.of(split.getLocations()));
      hostsSeen.addAll(hostsOfFiles);
    }
    assertEquals(Set.of(hosts), hostsSeen);
  }
}

package org.fawnpack.minicluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClientConfFilesTest {

  @TempDir
  Path dir;

  private static Configuration cluster() {
    Configuration conf = new Configuration(false);
    conf.set("fs.defaultFS", "hdfs://localhost:9000");
    conf.set("yarn.resourcemanager.address", "localhost:8032");
    conf.set("mapreduce.framework.name", "yarn");
    conf.set("mapreduce.jobhistory.webapp.address", "localhost:19888");
    conf.set("mapreduce.map.memory.mb", "384");
    conf.set("yarn.nodemanager.resource.cpu-vcores", "2"); // a daemon's key: not for clients
    conf.set("dfs.namenode.name.dir", "/tmp/name"); // same
    conf.set("mapreduce.job.am.node-label-expression", "master");
    conf.set("fawn.jobs.print-counters", "true");
    return conf;
  }

  @Test
  void split_eachKeyInTheFileHadoopReadsItFrom_daemonKeysLeftOut() {
    Map<String, Configuration> files = ClientConfFiles.split(cluster(),
        Set.of("fawn.jobs.print-counters"), "/opt/cp/*");

    assertEquals("hdfs://localhost:9000", files.get("core-site.xml").get("fs.defaultFS"));
    assertEquals("true", files.get("core-site.xml").get("fawn.jobs.print-counters"));
    assertEquals("localhost:8032", files.get("yarn-site.xml").get("yarn.resourcemanager.address"));
    Configuration mapred = files.get("mapred-site.xml");
    assertEquals("yarn", mapred.get("mapreduce.framework.name"));
    assertEquals("384", mapred.get("mapreduce.map.memory.mb"));
    assertEquals("master", mapred.get("mapreduce.job.am.node-label-expression"));
    assertEquals("/opt/cp/*", mapred.get("mapreduce.application.classpath"));
    for (Configuration file : files.values()) {
      assertNull(file.get("yarn.nodemanager.resource.cpu-vcores"));
      assertNull(file.get("dfs.namenode.name.dir"));
    }
    assertNull(files.get("core-site.xml").get("mapreduce.framework.name"));
  }

  /** The oracle is Hadoop itself: its own classes read the files as a client would. */
  @Test
  void write_readByHadoopsOwnConfigurations_overTheirDefaults() throws Exception {
    ClientConfFiles.write(cluster(), Set.of(), "/opt/cp/*", dir);
    Configuration core = new Configuration(false);
    core.addResource(dir.resolve("core-site.xml").toUri().toURL());
    JobConf job = new JobConf(core);
    job.addResource(dir.resolve("mapred-site.xml").toUri().toURL());
    YarnConfiguration yarn = new YarnConfiguration(core);
    yarn.addResource(dir.resolve("yarn-site.xml").toUri().toURL());

    assertEquals("hdfs://localhost:9000", core.get("fs.defaultFS"));
    assertEquals("yarn", job.get("mapreduce.framework.name"));
    assertEquals("localhost:19888", job.get("mapreduce.jobhistory.webapp.address"));
    assertEquals("localhost:8032", yarn.get("yarn.resourcemanager.address"));
  }
}

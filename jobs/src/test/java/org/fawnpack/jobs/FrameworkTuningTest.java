package org.fawnpack.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.util.GenericOptionsParser;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FrameworkTuningTest {

  private static final String POLL = "mapreduce.client.completion.pollinterval";
  private static final String HEARTBEAT = "yarn.app.mapreduce.am.scheduler.heartbeat.interval-ms";
  /** Shipped defaults, from mapred-default.xml. */
  private static final String POLL_DEFAULT = "5000";
  private static final String HEARTBEAT_DEFAULT = "1000";

  @TempDir
  java.nio.file.Path tmp;

  @BeforeAll
  static void loadMapReduceDefaults() {
    // new Configuration() reads only core-default.xml; mapred-default.xml becomes a default
    // resource when JobConf is loaded, as it is in any job client.
    new JobConf();
  }

  private java.nio.file.Path siteFile(String name, Map<String, String> properties)
      throws IOException {
    StringBuilder xml = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
    properties.forEach((k, v) -> xml.append("  <property><name>").append(k)
        .append("</name><value>").append(v).append("</value></property>\n"));
    xml.append("</configuration>\n");
    java.nio.file.Path file = tmp.resolve(name);
    Files.createDirectories(file.getParent());
    return Files.writeString(file, xml, StandardCharsets.UTF_8);
  }

  @Test
  void isUserSet_keyOnlyInMapredDefault_false() {
    Configuration conf = new Configuration();
    assertEquals(POLL_DEFAULT, conf.get(POLL), "mapred-default.xml not loaded?");
    assertEquals(HEARTBEAT_DEFAULT, conf.get(HEARTBEAT));
    assertFalse(FrameworkTuning.isUserSet(conf, POLL));
    assertFalse(FrameworkTuning.isUserSet(conf, HEARTBEAT));
  }

  @Test
  void isUserSet_keyInCoreDefault_false() {
    Configuration conf = new Configuration();
    assertNotNull(conf.get("io.file.buffer.size"));
    assertFalse(FrameworkTuning.isUserSet(conf, "io.file.buffer.size"));
  }

  @Test
  void isUserSet_keyUnset_false() {
    assertFalse(FrameworkTuning.isUserSet(new Configuration(), "fawn.no.such.key"));
    assertFalse(FrameworkTuning.isUserSet(new Configuration(false), POLL));
  }

  @Test
  void isUserSet_keySetInCode_true() {
    Configuration conf = new Configuration();
    conf.set(POLL, POLL_DEFAULT); // even at the default's value: the user chose it
    assertTrue(FrameworkTuning.isUserSet(conf, POLL));
  }

  @Test
  void isUserSet_keyFromSiteFile_true() throws IOException {
    Configuration conf = new Configuration();
    conf.addResource(new Path(siteFile("conf/mapred-site.xml", Map.of(POLL, "777")).toUri()));
    assertEquals("777", conf.get(POLL));
    assertTrue(FrameworkTuning.isUserSet(conf, POLL));
  }

  @Test
  void apply_keysAtTheirDefaults_changedToTunedValues() {
    Configuration conf = new Configuration();
    FrameworkTuning.apply(conf);
    assertEquals("250", conf.get(POLL));
    assertEquals("200", conf.get(HEARTBEAT));
  }

  @Test
  void apply_keySetByUser_kept() {
    Configuration conf = new Configuration();
    conf.set(POLL, "1234");
    FrameworkTuning.apply(conf);
    assertEquals("1234", conf.get(POLL));
    assertEquals("200", conf.get(HEARTBEAT), "the other key is still tuned");
  }

  @Test
  void apply_keyFromCommandLineOption_kept() throws IOException {
    Configuration conf = new Configuration();
    new GenericOptionsParser(conf, new String[] {"-D", HEARTBEAT + "=50"});
    FrameworkTuning.apply(conf);
    assertEquals("50", conf.get(HEARTBEAT));
    assertEquals("250", conf.get(POLL));
  }

  @Test
  void apply_keyFromSiteFile_kept() throws IOException {
    Configuration conf = new Configuration();
    conf.addResource(new Path(siteFile("conf/mapred-site.xml", Map.of(HEARTBEAT, "333")).toUri()));
    FrameworkTuning.apply(conf);
    assertEquals("333", conf.get(HEARTBEAT));
    assertEquals("250", conf.get(POLL));
  }

  @Test
  void apply_twice_sameResult() {
    Configuration conf = new Configuration();
    FrameworkTuning.apply(conf);
    FrameworkTuning.apply(conf);
    assertEquals("250", conf.get(POLL));
    assertEquals("200", conf.get(HEARTBEAT));
  }

  /**
   * In a JVM where nothing has loaded JobConf yet (as under {@code hadoop jar}), a value from
   * mapred-site.xml on the classpath must still win over the tuning, and a key the site file does
   * not set must still be tuned.
   */
  @ParameterizedTest
  @ValueSource(strings = {"wordcount2", "logcount2"})
  void createJob_freshJvmWithMapredSiteOnClasspath_siteValueKept(String jobName)
      throws Exception {
    java.nio.file.Path confDir = siteFile("site/mapred-site.xml", Map.of(POLL, "777")).getParent();
    Files.createDirectories(tmp.resolve("in"));
    String java = System.getProperty("java.home") + File.separator + "bin" + File.separator
        + "java";
    String classpath = confDir + File.pathSeparator + System.getProperty("java.class.path");
    List<String> command = new ArrayList<>(List.of(java, "-cp", classpath,
        FrameworkTuningProbe.class.getName(), jobName, tmp.resolve("in").toUri().toString(),
        tmp.resolve("out").toUri().toString()));
    Process process = new ProcessBuilder(command)
        .redirectError(tmp.resolve("probe.err").toFile())
        .start();
    String stdout = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    int exit = process.waitFor();
    assertEquals(0, exit, () -> "probe failed:\n" + stdout + readQuietly(tmp.resolve("probe.err")));

    Map<String, String> tuned = new HashMap<>();
    stdout.lines().filter(l -> l.startsWith(FrameworkTuningProbe.PREFIX)).forEach(l -> {
      String[] kv = l.substring(FrameworkTuningProbe.PREFIX.length()).split("=", 2);
      tuned.put(kv[0], kv[1]);
    });
    assertEquals(Map.of(POLL, "777", HEARTBEAT, "200", "mapreduce.map.speculative", "false",
        "mapreduce.reduce.speculative", "false"), tuned);
  }

  private static String readQuietly(java.nio.file.Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      return "(no stderr: " + e + ")";
    }
  }
}

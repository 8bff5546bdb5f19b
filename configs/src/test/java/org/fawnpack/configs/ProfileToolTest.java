package org.fawnpack.configs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProfileToolTest {

  @TempDir
  Path dir;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) throws Exception {
    ProfileTool tool = new ProfileTool(new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    return ToolRunner.run(new Configuration(), tool, args);
  }

  private String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void run_noArguments_printsUsageAndExits2() throws Exception {
    assertEquals(2, run());
    assertTrue(err().contains("Usage: fawn profile"));
  }

  @Test
  void run_unknownCommand_exits2() throws Exception {
    assertEquals(2, run("paint"));
    assertTrue(err().contains("unknown command 'paint'"));
  }

  @Test
  void render_thenValidate_directory() throws Exception {
    Path outDir = dir.resolve("out");
    assertEquals(0, run("render", "--inventory", "examples/edison-35.yaml", "--out",
        outDir.toString()), err());
    assertTrue(Files.isRegularFile(outDir.resolve("edison-35/yarn-site.xml")));
    assertEquals(0, run("validate", outDir.toString()), err());
    assertTrue(out().contains("38 hosts, 0 errors"), out());
  }

  @Test
  void render_inventoryWithErrors_writesNothingAndExits1() throws Exception {
    Path bad = dir.resolve("bad.yaml");
    // A master profile whose AM (8 GB) is bigger than its own NodeManager (4 GB).
    Files.writeString(dir.resolve("big-am.yaml"), Files.readString(
        Path.of("src/main/resources/profiles/brawny-master.yaml"))
        .replace("name: brawny-master", "name: big-am")
        .replace("am-memory-mb: {value: 500", "am-memory-mb: {value: 8192")
        .replace("am-heap-mb: {value: 400", "am-heap-mb: {value: 6000"));
    Files.writeString(bad, "cluster: bad\nhosts:\n  - {host: m, profile: big-am.yaml}\n"
        + "  - {host: e1, profile: edison}\n");
    Path outDir = dir.resolve("never");
    assertEquals(1, run("render", "--inventory", bad.toString(), "--out", outDir.toString()));
    assertTrue(err().contains("ERROR m mapred-site.xml yarn.app.mapreduce.am.resource.mb=8192"),
        err());
    assertTrue(!Files.exists(outDir));
  }

  @Test
  void validate_inventory_reportsWarnings() throws Exception {
    assertEquals(0, run("validate", "--inventory", "examples/arm-small.yaml"), err());
    assertTrue(out().contains("WARNING pi-1 yarn-site.xml yarn.nodemanager.resource.cpu-vcores=4"),
        out());
  }

  @Test
  void derive_printsAProfileThatReadsBack() throws Exception {
    assertEquals(0, run("derive", "--cores", "2", "--memory", "960m", "--disks", "1",
        "--name", "edison-like"), err());
    Profile p = ProfileReader.parse("stdout", out());
    assertEquals(250, p.get(Setting.MAP_MEMORY_MB));
    assertEquals("edison-like", p.name());
  }

  @Test
  void derive_badMemory_namesTheOption() throws Exception {
    assertEquals(2, run("derive", "--cores", "2", "--memory", "lots", "--disks", "1"));
    assertTrue(err().contains("--memory must be a size"), err());
  }

  @Test
  void diff_edison_showsHadoopDefaultsAndReasons() throws Exception {
    assertEquals(0, run("diff", "edison"), err());
    // Hadoop 3.5.0's documented defaults (yarn-default.xml, mapred-default.xml, hdfs-default).
    assertTrue(out().matches("(?s).*yarn.nodemanager.resource.memory-mb\\s+8192\\s+600\\s+seed 003.*"),
        out());
    assertTrue(out().matches("(?s).*mapreduce.task.io.sort.mb\\s+100\\s+48\\s.*"), out());
    assertTrue(out().matches("(?s).*dfs.blocksize\\s+134217728\\s+16777216\\s.*"), out());
    assertTrue(out().matches("(?s).*yarn.app.mapreduce.am.resource.mb\\s+1536\\s+300\\s.*"),
        out());
  }

  @Test
  void run_help_printsTheUsageOfEveryCommand() throws Exception {
    assertEquals(0, run("--help"));
    for (String command : new String[] {"render --inventory FILE --out DIR", "validate DIR",
        "validate --inventory FILE", "derive --cores N --memory SIZE --disks N", "diff PROFILE",
        "list"}) {
      assertTrue(out().contains(command), command + " in\n" + out());
    }
  }

  @Test
  void render_missingInventory_exits2NamingTheFile() throws Exception {
    assertEquals(2, run("render", "--inventory", "no-such.yaml", "--out", dir.toString()));
    assertTrue(err().contains("profile: no-such.yaml: (file): no such inventory file"), err());
  }

  @Test
  void render_unknownProfile_exits2NamingFileKeyAndValue() throws Exception {
    Path inv = dir.resolve("typo.yaml");
    Files.writeString(inv, "cluster: c\nhosts:\n  - {host: m, profile: brawny-master}\n"
        + "  - {host: e1, profile: edisn}\n");
    assertEquals(2, run("render", "--inventory", inv.toString(), "--out", dir.toString()));
    assertTrue(err().contains(inv + ": hosts[1].profile=edisn: neither a built-in profile"),
        err());
  }

  @Test
  void validate_inventoryYamlError_exits2NamingTheFile() throws Exception {
    Path inv = dir.resolve("broken.yaml");
    Files.writeString(inv, "cluster: c\nhosts:\n  - {host: m, profile: brawny-master\n");
    assertEquals(2, run("validate", "--inventory", inv.toString()));
    assertTrue(err().contains(inv + ": (document): is not valid YAML"), err());
  }

  @Test
  void validate_profileFileWithBadSize_exits2NamingFileAndKey() throws Exception {
    Path profile = dir.resolve("big.yaml");
    Files.writeString(profile, Files.readString(Path.of("src/main/resources/profiles/edison.yaml"))
        .replace("name: edison", "name: big")
        .replace("memory-mb: {value: 960,", "memory-mb: {value: 960m,"));
    Path inv = dir.resolve("inv.yaml");
    Files.writeString(inv, "cluster: c\nhosts:\n  - {host: m, profile: brawny-master}\n"
        + "  - {host: e1, profile: big.yaml}\n");
    assertEquals(2, run("validate", "--inventory", inv.toString()));
    assertTrue(err().contains(profile + ": resources.memory-mb.value=960m: must be a number"),
        err());
  }

  @Test
  void validate_missingDirectory_exits2() throws Exception {
    assertEquals(2, run("validate", dir.resolve("nothing").toString()));
    assertTrue(err().contains("not a directory"), err());
  }

  @Test
  void derive_badRole_exits2() throws Exception {
    assertEquals(2, run("derive", "--cores", "2", "--memory", "960m", "--disks", "1",
        "--role", "boss"));
    assertTrue(err().contains("--role must be slave or master, was 'boss'"), err());
  }

  @Test
  void derive_missingDisks_exits2() throws Exception {
    assertEquals(2, run("derive", "--cores", "2", "--memory", "960m"));
    assertTrue(err().contains("--disks is required"), err());
  }

  @Test
  void diff_everyChangeCarriesItsReason() throws Exception {
    for (String name : ProfileReader.BUILT_IN) {
      for (ProfileDiff.Change c : ProfileDiff.of(ProfileReader.builtIn(name))) {
        assertFalse(c.reason().isBlank(), name + " " + c.key());
        assertFalse(c.value().equals(c.hadoopDefault()), name + " " + c.key());
      }
    }
  }

  @Test
  void diff_unknownProfile_exits2() throws Exception {
    assertEquals(2, run("diff", "cray-1"));
    assertTrue(err().contains("no profile 'cray-1'"), err());
  }

  @Test
  void list_namesEveryBuiltIn() throws Exception {
    assertEquals(0, run("list"));
    for (String name : ProfileReader.BUILT_IN) {
      assertTrue(out().contains(name), name);
    }
  }
}

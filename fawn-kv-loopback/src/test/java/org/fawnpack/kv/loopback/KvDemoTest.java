package org.fawnpack.kv.loopback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./fawn demo --kv} from end to end, small: back-ends as child JVMs, one killed with
 * SIGKILL under writes. The demo's own check is the oracle that matters (each writer's record
 * of what every key may hold, kept apart from the store); the test requires it passed and each
 * step printed its figures.
 */
class KvDemoTest {
  @TempDir
  Path dir;

  @Test
  void demo_small_passesItsChecksAndPrintsEveryStep() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit = LoopbackCommand.command(new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8)).run(new String[] {"demo", "--dir",
            dir.resolve("demo").toString(), "--keys", "500", "--seconds", "1"});
    String printed = out.toString(StandardCharsets.UTF_8);
    assertEquals(0, exit, printed + err.toString(StandardCharsets.UTF_8));
    assertTrue(printed.contains("1. loaded 500 keys"), printed);
    assertTrue(printed.matches("(?s).*\n   off +[0-9,]+ +- +[0-9,]+ +[0-9,]+\n.*"), printed);
    assertTrue(printed.matches(
        "(?s).*\n   on, [0-9]+ keys each +[0-9,]+ +[0-9]+ % +[0-9,]+ +[0-9,]+\n.*"), printed);
    assertTrue(printed.contains("every acknowledged write reads back with its latest value,"
        + " and all 500 loaded keys too"), printed);
    assertTrue(printed.contains("4. back-end b5 joined"), printed);
    assertTrue(printed.contains("back-end b2@127.0.0.3") && printed.contains("(down)"),
        printed);
  }
}

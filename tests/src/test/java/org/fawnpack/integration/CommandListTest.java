package org.fawnpack.integration;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The {@code fawn} launcher's usage is the one list of its commands: every command it
 * dispatches is in it, README.md's command table has a row for each, and its list of
 * {@code ./fawn kv} commands is the one FAWN-KV's own usage prints and the one README.md's
 * {@code ./fawn kv} row names. A failure names each command missing on either side.
 */
class CommandListTest {
  private static final Path LAUNCHER = Path.of("../fawn");
  private static final Path README = Path.of("../README.md");

  /** A command of the usage: a line indented by exactly two spaces. */
  private static final Pattern USAGE_COMMAND =
      Pattern.compile("^  ([a-z][a-z0-9-]*)(?=\\s|$)", Pattern.MULTILINE);
  /** A FAWN-KV command of the usage: {@code "    kv put|get|delete  ..."}. */
  private static final Pattern USAGE_KV_COMMAND =
      Pattern.compile("^    kv ([a-z|-]+)(?=\\s|$)", Pattern.MULTILINE);
  /** A case of main()'s dispatch: {@code "    demo)"}, {@code "    fs|dfs)"}. */
  private static final Pattern DISPATCH_CASE =
      Pattern.compile("^    ([a-z][a-z0-9-]*(?:\\|[a-z0-9-]+)*)\\)", Pattern.MULTILINE);
  /** A row of README.md's command table: {@code "| `./fawn demo --all` | ..."}. */
  private static final Pattern README_ROW =
      Pattern.compile("^\\| `\\./fawn ([a-z][a-z0-9-]*)[^`]*` \\|(.*)$", Pattern.MULTILINE);
  /** A command named in the {@code ./fawn kv} row: a single lower-case word in backticks. */
  private static final Pattern README_KV_COMMAND = Pattern.compile("`([a-z][a-z-]*)`");

  @Test
  void readme_hasARowForEveryCommandOfTheUsage() throws Exception {
    assertSame(usageCommands(), "the fawn script's usage", readmeRows().keySet(),
        "README.md's command table");
  }

  @Test
  void usage_listsEveryCommandTheLauncherRuns() throws Exception {
    String script = Files.readString(LAUNCHER);
    String main = script.substring(script.indexOf("\nmain() {"));
    Set<String> dispatched = new TreeSet<>();
    Matcher c = DISPATCH_CASE.matcher(main);
    while (c.find()) {
      dispatched.addAll(Arrays.asList(c.group(1).split("\\|")));
    }
    dispatched.remove("help"); // -h|--help|help prints the usage itself
    assertFalse(dispatched.isEmpty(), "no case found in main() of " + LAUNCHER);
    assertSame(usageCommands(), "the fawn script's usage", dispatched,
        "the cases of its main()");
  }

  @Test
  void readme_namesEveryKvCommandOfTheUsage() throws Exception {
    String kvRow = readmeRows().get("kv");
    assertTrue(kvRow != null, "README.md's command table has no ./fawn kv row");
    Set<String> named = new TreeSet<>();
    Matcher m = README_KV_COMMAND.matcher(kvRow);
    while (m.find()) {
      named.add(m.group(1));
    }
    assertSame(usageKvCommands(), "the fawn script's usage", named,
        "README.md's ./fawn kv row");
  }

  @Test
  void usage_listsEveryCommandOfFawnKv() throws Exception {
    Field field = Class.forName("org.fawnpack.kv.cli.KvCommand").getDeclaredField("USAGE");
    field.setAccessible(true);
    Set<String> kvCommands = matches(USAGE_COMMAND, (String) field.get(null));
    assertSame(usageKvCommands(), "the fawn script's usage", kvCommands,
        "KvCommand's usage (./fawn kv --help)");
  }

  private static Set<String> usageCommands() throws Exception {
    Set<String> commands = matches(USAGE_COMMAND, usage());
    assertFalse(commands.isEmpty(), "no command found in the usage of " + LAUNCHER);
    return commands;
  }

  private static Set<String> usageKvCommands() throws Exception {
    Set<String> commands = new TreeSet<>();
    for (String group : matches(USAGE_KV_COMMAND, usage())) {
      commands.addAll(Arrays.asList(group.split("\\|")));
    }
    assertFalse(commands.isEmpty(), "no 'kv COMMAND' line in the usage of " + LAUNCHER);
    return commands;
  }

  /** The text of the launcher's usage() here-document. */
  private static String usage() throws Exception {
    String script = Files.readString(LAUNCHER);
    int start = script.indexOf("<<USAGE\n");
    int end = script.indexOf("\nUSAGE\n", start);
    assertTrue(start >= 0 && end > start, LAUNCHER + " has no usage() here-document");
    return script.substring(start, end);
  }

  /** README.md's command table: each ./fawn command with the rest of its first row. */
  private static Map<String, String> readmeRows() throws Exception {
    Map<String, String> rows = new TreeMap<>();
    Matcher row = README_ROW.matcher(Files.readString(README));
    while (row.find()) {
      rows.putIfAbsent(row.group(1), row.group(2));
    }
    return rows;
  }

  private static Set<String> matches(Pattern pattern, String text) {
    Set<String> found = new TreeSet<>();
    Matcher m = pattern.matcher(text);
    while (m.find()) {
      found.add(m.group(1));
    }
    return found;
  }

  private static void assertSame(Set<String> a, String aName, Set<String> b, String bName) {
    Set<String> onlyA = new TreeSet<>(a);
    onlyA.removeAll(b);
    Set<String> onlyB = new TreeSet<>(b);
    onlyB.removeAll(a);
    assertTrue(onlyA.isEmpty() && onlyB.isEmpty(), "commands in " + aName + " missing from "
        + bName + ": " + onlyA + "; in " + bName + " missing from " + aName + ": " + onlyB);
  }
}

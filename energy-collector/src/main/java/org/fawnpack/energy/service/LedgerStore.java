package org.fawnpack.energy.service;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The ledger's checkpoint in the NodeManager's recovery directory for this service, so a
 * NodeManager restart (with {@code yarn.nodemanager.recovery.enabled}) keeps every container's
 * joules. Written whole to a temporary file and renamed over the old one, so a crash mid-write
 * leaves the previous checkpoint intact. Energy metered between the last checkpoint and a crash
 * is lost; the checkpoint period bounds it ({@code fawn.energy.ledger.checkpoint-ms}).
 */
final class LedgerStore {
  static final String FILE_NAME = "ledger-v1.csv";
  private static final String HEADER = "# fawn-energy ledger v1";

  private final Path file;

  LedgerStore(Path directory) {
    this.file = directory.resolve(FILE_NAME);
  }

  Path file() {
    return file;
  }

  void save(LedgerState state) throws IOException {
    Files.createDirectories(file.getParent());
    Path temporary = file.resolveSibling(FILE_NAME + ".tmp");
    try (BufferedWriter out = Files.newBufferedWriter(temporary, StandardCharsets.UTF_8)) {
      out.write(HEADER + "\n");
      out.write("metered," + state.meteredMicrojoules() + "\n");
      out.write("node_idle," + state.nodeIdleMicrojoules() + "\n");
      out.write("archived," + state.archivedMicrojoules() + "\n");
      for (ContainerRecord c : state.containers()) {
        out.write(String.join(",", "container", c.containerId(), c.applicationId(), c.type(),
            Integer.toString(c.vcores()), Long.toString(c.memoryMb()),
            Long.toString(c.startMillis()), Long.toString(c.stopMillis()),
            Long.toString(c.energyMicrojoules()), Long.toString(c.idleMicrojoules()),
            Long.toString(c.samples()), Long.toString(c.gaps()), Boolean.toString(c.estimated()))
            + "\n");
      }
    }
    try {
      Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING,
          StandardCopyOption.ATOMIC_MOVE);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  /** The last checkpoint, or empty when there is none. A damaged file is an error naming it. */
  Optional<LedgerState> load() throws IOException {
    if (!Files.exists(file)) {
      return Optional.empty();
    }
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    if (lines.isEmpty() || !lines.get(0).equals(HEADER)) {
      throw new IOException(file + " is not a fawn-energy ledger checkpoint (first line "
          + (lines.isEmpty() ? "missing" : "'" + lines.get(0) + "'") + ")");
    }
    long metered = -1;
    long nodeIdle = -1;
    long archived = 0; // absent in checkpoints written before it was recorded
    List<ContainerRecord> containers = new ArrayList<>();
    for (int i = 1; i < lines.size(); i++) {
      String[] f = lines.get(i).split(",", -1);
      try {
        switch (f[0]) {
          case "metered" -> metered = Long.parseLong(f[1]);
          case "node_idle" -> nodeIdle = Long.parseLong(f[1]);
          case "archived" -> archived = Long.parseLong(f[1]);
          case "container" -> containers.add(new ContainerRecord(f[1], f[2], f[3],
              Integer.parseInt(f[4]), Long.parseLong(f[5]), Long.parseLong(f[6]),
              Long.parseLong(f[7]), Long.parseLong(f[8]), Long.parseLong(f[9]),
              Long.parseLong(f[10]), Long.parseLong(f[11]), parseFlag(f[12])));
          default -> throw new IOException(file + " line " + (i + 1) + " is damaged: unknown record '"
              + f[0] + "'");
        }
      } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
        throw new IOException(file + " line " + (i + 1) + " is damaged: '" + lines.get(i) + "'", e);
      }
    }
    if (metered < 0 || nodeIdle < 0) {
      throw new IOException(file + " lacks the metered or node_idle total");
    }
    return Optional.of(new LedgerState(metered, nodeIdle, archived, containers));
  }

  private static boolean parseFlag(String text) {
    if (text.equals("true") || text.equals("false")) {
      return Boolean.parseBoolean(text);
    }
    throw new NumberFormatException("not a boolean: '" + text + "'");
  }
}

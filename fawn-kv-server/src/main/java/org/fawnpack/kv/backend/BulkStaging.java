package org.fawnpack.kv.backend;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.fawnpack.kv.store.Directories;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A back-end's bulk loads on disk, under {@code bulk/<job>/} of its data directory: a file
 * arriving in pieces ({@code arc-<end>.part}), the staged file once whole and checked
 * ({@code arc-<end>.fds}, forced), the mark written before the file is absorbed into the arc
 * ({@code arc-<end>.applying}: base and last sequence number, so a retried apply is not
 * applied twice), and {@code GATE}, the arcs of a committed load. A gated arc serves no read
 * and takes no write from the load's commit until its release, so no reader sees one arc of a
 * load and not another; {@code GATE} survives a restart, and so does the gate. Released loads'
 * directories are deleted.
 */
final class BulkStaging {
  private static final Logger LOG = LoggerFactory.getLogger(BulkStaging.class);
  private static final String GATE = "GATE";
  private static final String JOB_NAME = "[A-Za-z0-9_.-]{1,120}";

  /** Where a member absorbed a load into an arc: after {@code base}, up to {@code last}. */
  record Applying(long base, long last) {}

  private final String id;
  private final Path root;
  /**
   * Files arriving, with the CRC32C of their bytes so far. One driver thread sends a file's
   * pieces in order, each after the last was answered; files of other arcs arrive at once.
   */
  private final Map<Path, CRC32C> arriving = new ConcurrentHashMap<>();
  /** Arc end to the job whose load gates it. */
  private final Map<Long, String> gates = new ConcurrentHashMap<>();

  BulkStaging(String id, Path dataDir) throws IOException {
    this.id = id;
    this.root = dataDir.resolve("bulk");
    restoreGates();
  }

  /** Refuses a job id that could name another directory; returns it. */
  static String checkedJob(String job) {
    if (job == null || !job.matches(JOB_NAME) || job.equals(".") || job.equals("..")) {
      throw new IllegalArgumentException("a bulk load's job id is 1-120 letters, digits, '_',"
          + " '.', '-': " + job);
    }
    return job;
  }

  /**
   * Writes a piece of the job's file for the arc at {@code offset}; the last one ({@code
   * total >= 0}) checks length and CRC32C, forces the file and makes it the staged file.
   * A piece at offset 0 starts the file over (a retried transfer); one at another offset
   * must follow the file's last piece in this run.
   */
  void piece(String job, long arcEnd, long offset, byte[] bytes, long total,
      int crc32c) throws IOException {
    Path dir = root.resolve(checkedJob(job));
    Files.createDirectories(dir);
    Path part = dir.resolve(name(arcEnd, ".part"));
    if (offset == 0) {
      Files.deleteIfExists(part);
      arriving.put(part, new CRC32C());
    }
    CRC32C crc = arriving.get(part);
    try (FileChannel out = FileChannel.open(part, StandardOpenOption.CREATE,
        StandardOpenOption.WRITE)) {
      if (crc == null || out.size() != offset) {
        arriving.remove(part);
        throw new IOException("backend " + id + ": bulk load " + job + ", arc "
            + Long.toHexString(arcEnd) + ": a piece at " + offset + " but " + out.size()
            + " bytes arrived" + (crc == null ? " before this run" : "") + "; send again from 0");
      }
      ByteBuffer buffer = ByteBuffer.wrap(bytes);
      while (buffer.hasRemaining()) {
        out.write(buffer, out.size());
      }
      crc.update(bytes); // as it arrives: no second read of the file at its end
      if (total < 0) {
        return;
      }
      arriving.remove(part);
      long size = out.size();
      if (size != total || (int) crc.getValue() != crc32c) {
        out.close();
        Files.delete(part);
        throw new IOException("backend " + id + ": bulk load " + job + ", arc "
            + Long.toHexString(arcEnd) + ": " + (size != total ? total + " bytes sent, "
                + size + " arrived" : "CRC32C " + Integer.toHexString(
                    (int) crc.getValue()) + " of what arrived, the sender's "
                    + Integer.toHexString(crc32c)) + "; not staged");
      }
      out.force(true);
    }
    Path staged = dir.resolve(name(arcEnd, ".fds"));
    Files.move(part, staged, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    Directories.syncParentOf(staged);
  }

  /** The job's staged file for the arc, or null when this member has none. */
  Path staged(String job, long arcEnd) {
    Path file = root.resolve(checkedJob(job)).resolve(name(arcEnd, ".fds"));
    return Files.exists(file) ? file : null;
  }

  /** Where the job was absorbed into the arc here, or null when it was not (yet). */
  Applying applying(String job, long arcEnd) throws IOException {
    Path mark = root.resolve(checkedJob(job)).resolve(name(arcEnd, ".applying"));
    try {
      String[] fields = Files.readString(mark, StandardCharsets.US_ASCII).trim().split(" ");
      return new Applying(Long.parseLong(fields[0]), Long.parseLong(fields[1]));
    } catch (NoSuchFileException e) {
      return null;
    }
  }

  /**
   * Gates {@code arcEnds} for the committed job, and keeps that in {@code GATE} (forced) so a
   * restart keeps the gate.
   */
  synchronized void gate(String job, Set<Long> arcEnds) throws IOException {
    Path dir = root.resolve(checkedJob(job));
    Files.createDirectories(dir);
    Path file = dir.resolve(GATE);
    StringBuilder text = new StringBuilder();
    for (long end : new java.util.TreeSet<>(arcEnds)) {
      text.append(String.format("%016x", end)).append('\n');
    }
    Path tmp = dir.resolve(GATE + ".tmp");
    Files.writeString(tmp, text, StandardCharsets.US_ASCII);
    try (FileChannel c = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
      c.force(true);
    }
    Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    Directories.syncParentOf(file);
    for (long end : arcEnds) {
      gates.put(end, job);
    }
  }

  /**
   * Marks (forced) that the job is being absorbed into the arc after {@code base} up to
   * {@code last}: call before the absorb, under the arc's lock.
   */
  void markApplying(String job, long arcEnd, long base, long last) throws IOException {
    Path dir = root.resolve(checkedJob(job));
    Files.createDirectories(dir);
    Path mark = dir.resolve(name(arcEnd, ".applying"));
    Files.writeString(mark, base + " " + last + "\n", StandardCharsets.US_ASCII);
    try (FileChannel c = FileChannel.open(mark, StandardOpenOption.WRITE)) {
      c.force(true);
    }
    Directories.syncParentOf(mark);
  }

  /** The staged file was absorbed: it goes (the arc's log has its records now). */
  void absorbed(String job, long arcEnd) throws IOException {
    Path staged = staged(job, arcEnd);
    if (staged != null) {
      ArcSplits.deleteLogAndIndex(staged);
    }
  }

  /** The job whose load gates the arc, or null when it serves. */
  String gate(long arcEnd) {
    return gates.isEmpty() ? null : gates.get(arcEnd);
  }

  /** The jobs this member holds files or gates of. */
  Set<String> jobs() throws IOException {
    if (!Files.isDirectory(root)) {
      return Set.of();
    }
    Set<String> jobs = new java.util.TreeSet<>();
    try (DirectoryStream<Path> dirs = Files.newDirectoryStream(root)) {
      for (Path d : dirs) {
        jobs.add(d.getFileName().toString());
      }
    }
    return jobs;
  }

  /**
   * The load is over (every arc applied it) or will never happen (it did not commit): its
   * gates open and its files go. Returns the arcs it gated here.
   */
  Set<Long> release(String job) throws IOException {
    checkedJob(job);
    Set<Long> opened = new java.util.HashSet<>();
    for (Map.Entry<Long, String> gate : gates.entrySet()) {
      if (gate.getValue().equals(job) && gates.remove(gate.getKey(), job)) {
        opened.add(gate.getKey());
      }
    }
    Path dir = root.resolve(job);
    if (Files.exists(dir)) {
      try (Stream<Path> files = Files.walk(dir)) {
        for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(f);
        }
      }
      LOG.info("backend {}: bulk load {} released ({} arcs served again)", id, job,
          opened.size());
    }
    return opened;
  }

  /** Whether this member was told the job committed (it gates the job's arcs). */
  boolean gated(String job) {
    return gates.containsValue(job);
  }

  private void restoreGates() throws IOException {
    for (String job : jobs()) {
      Path file = root.resolve(job).resolve(GATE);
      if (!Files.exists(file)) {
        continue;
      }
      for (String line : Files.readAllLines(file, StandardCharsets.US_ASCII)) {
        if (!line.isBlank()) {
          gates.put(Long.parseUnsignedLong(line.trim(), 16), job);
        }
      }
      LOG.info("backend {}: arcs of bulk load {} stay gated until it is released", id, job);
    }
  }

  private static String name(long arcEnd, String suffix) {
    return "arc-" + String.format("%016x", arcEnd) + suffix;
  }

}

package org.fawnpack.kv.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts back what a crash took from the datastore files of a {@link Journal}: the writes it holds
 * that a file lacks (a process kill drops a file's append buffer; a power cut may drop any page
 * not forced, in any order).
 *
 * <p>For each file the journal names (by path and the log id in its header), every write of it
 * in the journal from the lowest sequence number on is in the journal, because a segment goes
 * only once the file was forced past it. So the file is recovered with damage after that point
 * treated as a torn tail ({@link LogRecovery}: cut there, not skipped), and the journal's writes
 * above what the file then holds are applied in order, forced, and the file closed. A file the
 * journal names that is gone, or whose header has another log id, was deleted or compacted
 * after being forced: its records there are not needed.
 */
final class JournalReplay {

  private static final Logger LOG = LoggerFactory.getLogger(JournalReplay.class);
  private static final Pattern SEGMENT = Pattern.compile("journal-([0-9a-f]{16})\\.fjl");

  /** A datastore file as the journal names it. */
  private record FileId(String path, long logId) {}

  private JournalReplay() {}

  static String segmentName(long number) {
    return String.format("journal-%016x.fjl", number);
  }

  /**
   * Replays every segment in {@code directory} into its files, opened with {@code config} (no
   * journal), then deletes the segments. Returns the number for the next segment.
   */
  static long replay(Path directory, DatastoreConfig config) throws IOException {
    TreeMap<Long, Path> segments = segments(directory);
    if (segments.isEmpty()) {
      return 1;
    }
    Map<FileId, List<JournalFormat.Decoded>> writes = new LinkedHashMap<>();
    Map<FileId, Long> forcedAtLastName = new HashMap<>();
    long last = segments.lastKey();
    for (Map.Entry<Long, Path> s : segments.entrySet()) {
      read(s.getValue(), s.getKey(), s.getKey() == last, writes, forcedAtLastName);
    }
    Map<String, Map<Long, List<JournalFormat.Decoded>>> byPath = new LinkedHashMap<>();
    writes.forEach((id, list) ->
        byPath.computeIfAbsent(id.path(), p -> new HashMap<>()).put(id.logId(), list));
    for (Map.Entry<String, Map<Long, List<JournalFormat.Decoded>>> e : byPath.entrySet()) {
      Map<Long, Long> forcedByLog = new HashMap<>();
      forcedAtLastName.forEach((id, forced) -> {
        if (id.path().equals(e.getKey())) {
          forcedByLog.put(id.logId(), forced);
        }
      });
      apply(Path.of(e.getKey()), e.getValue(), forcedByLog, config);
    }
    for (Path segment : segments.values()) {
      Files.delete(segment);
    }
    Directories.syncParentOf(segments.firstEntry().getValue());
    return last + 1;
  }

  private static TreeMap<Long, Path> segments(Path directory) throws IOException {
    TreeMap<Long, Path> found = new TreeMap<>();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "journal-*.fjl")) {
      for (Path file : files) {
        Matcher m = SEGMENT.matcher(file.getFileName().toString());
        if (!m.matches()) {
          throw new IOException(file + ": not a journal segment name (journal-<16 hex>.fjl)");
        }
        found.put(Long.parseUnsignedLong(m.group(1), 16), file);
      }
    }
    return found;
  }

  /**
   * Reads one segment's writes into {@code writes}. The last segment may end in a torn record
   * (a force that did not finish: nothing in it was acknowledged); an earlier one was forced
   * whole before the next began, so damage there is refused by name.
   */
  private static void read(Path segment, long number, boolean last,
      Map<FileId, List<JournalFormat.Decoded>> writes, Map<FileId, Long> forcedAtLastName)
      throws IOException {
    ByteBuffer bytes;
    try (FileChannel channel = FileChannel.open(segment, StandardOpenOption.READ)) {
      long size = channel.size();
      if (size > Integer.MAX_VALUE - 8) {
        throw new CorruptLogException(segment, 0, "segment size", "below 2 GiB", size + "");
      }
      bytes = ByteBuffer.allocate((int) size);
      FileIo.readFully(channel, bytes, 0);
      bytes.flip();
    }
    if (bytes.remaining() < JournalFormat.HEADER_BYTES) {
      if (last) {
        return; // created, header not yet forced: nothing in it was acknowledged
      }
      throw new CorruptLogException(segment, 0, "header", "16 bytes", bytes.remaining() + "");
    }
    if (bytes.getInt(0) != JournalFormat.MAGIC || bytes.getLong(8) != number) {
      throw new CorruptLogException(segment, 0, "header", "FJNL, segment " + number,
          Integer.toHexString(bytes.getInt(0)) + ", segment " + bytes.getLong(8));
    }
    Map<Integer, FileId> names = new HashMap<>();
    int at = JournalFormat.HEADER_BYTES;
    int records = 0;
    while (at < bytes.limit()) {
      JournalFormat.Decoded d = decodeAt(bytes, at);
      if (d == null) {
        if (last) {
          LOG.info("{}: ignoring {} bytes of torn journal tail at offset {}", segment,
              bytes.limit() - at, at);
          break;
        }
        throw new CorruptLogException(segment, at, "journal record", "a valid record",
            "damaged bytes");
      }
      at += JournalFormat.RECORD_HEADER_BYTES + bytes.getInt(at);
      records++;
      if (d.kind() == JournalFormat.KIND_NAME) {
        FileId file = new FileId(d.path(), d.logId());
        names.put(d.id(), file);
        forcedAtLastName.put(file, d.sequence()); // the last one read is the furthest forced
        continue;
      }
      FileId file = names.get(d.id());
      if (file == null) {
        throw new CorruptLogException(segment, at, "journal record", "a named file id",
            "id " + d.id());
      }
      writes.computeIfAbsent(file, f -> new ArrayList<>()).add(d);
    }
    LOG.info("{}: read {} journal records", segment, records);
  }

  private static JournalFormat.Decoded decodeAt(ByteBuffer bytes, int at) {
    if (bytes.limit() - at < JournalFormat.RECORD_HEADER_BYTES) {
      return null;
    }
    int length = bytes.getInt(at);
    int start = at + JournalFormat.RECORD_HEADER_BYTES;
    if (length <= 0 || length > JournalFormat.MAX_BODY_BYTES || length > bytes.limit() - start) {
      return null;
    }
    if (JournalFormat.crc(bytes, start, start + length) != bytes.getInt(at + 4)) {
      return null;
    }
    return JournalFormat.decode(bytes.duplicate().limit(start + length).position(start));
  }

  /**
   * Puts back into one file the journal's writes it lacks. It is opened once, whatever logs the
   * journal saw under its path: only the writes of the log now in its header are its own (those
   * of an earlier log were compacted into it and forced).
   */
  private static void apply(Path path, Map<Long, List<JournalFormat.Decoded>> writesByLog,
      Map<Long, Long> forcedByLog, DatastoreConfig config) throws IOException {
    int total = writesByLog.values().stream().mapToInt(List::size).sum();
    if (!Files.exists(path)) {
      LOG.info("{}: gone since it wrote to the journal (deleted after its last force); its {} "
          + "journal records are not needed", path, total);
      return;
    }
    long sizeBefore = Files.size(path);
    try (Datastore store = new Datastore(DatastoreLoader.load(path, config,
        logId -> forcedByLog.getOrDefault(logId, Long.MAX_VALUE)), config)) {
      List<JournalFormat.Decoded> writes = writesByLog.getOrDefault(store.logId(), List.of());
      long forced = forcedByLog.getOrDefault(store.logId(), 0L);
      if (sizeBefore < forced) {
        // The journal holds what came after byte `forced`; what the file lost below it is gone,
        // and applying the rest would leave a hole in its history: keep it a shorter prefix.
        LOG.error("{}: has {} bytes, but {} were forced when the journal last named it: the"
            + " device lost forced bytes, which the journal cannot put back; its {} journal"
            + " writes are not applied, so the file stays a prefix of its history", path,
            sizeBefore, forced, writes.size());
        return;
      }
      int applied = 0;
      for (JournalFormat.Decoded w : writes) {
        boolean done = w.kind() == JournalFormat.KIND_PUT
            ? store.putAt(w.key(), w.value(), w.sequence())
            : store.deleteAt(w.key(), w.sequence());
        applied += done ? 1 : 0;
      }
      store.sync();
      LOG.info("{}: {} journal writes applied of the {} of its current log (the rest it held "
          + "already); {} of earlier logs are in it since their compaction", path, applied,
          writes.size(), total - writes.size());
    }
  }
}

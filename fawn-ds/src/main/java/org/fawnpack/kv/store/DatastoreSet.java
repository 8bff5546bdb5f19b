package org.fawnpack.kv.store;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's storage manager (the paper's Figure 4): one datastore file per key range in one
 * directory, named {@code range-<start>-<end>-g<generation>.fds} (hex; the range is
 * {@code (start, end]} of {@link KeyRange}). Gets and puts are routed by the key's ring
 * position; split and merge replace files by whole ranges.
 *
 * <p>Crash safety of split and merge: the new files are complete and synced before the old ones
 * are deleted, and carry a higher generation. An open that finds overlapping ranges (a crash
 * between the two steps) keeps the higher generation and deletes the rest.
 *
 * <p>Thread-safe: routing reads an immutable snapshot of the ranges; structural changes are
 * serialised.
 */
public final class DatastoreSet implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(DatastoreSet.class);
  private static final Pattern NAME = StoreFiles.RANGE_FILE;

  private record Entry(KeyRange range, long generation, Path file, Datastore store) {}

  private final Path directory;
  private final DatastoreConfig config;
  private volatile List<Entry> entries;
  private long nextGeneration;
  private boolean closed;

  private DatastoreSet(Path directory, DatastoreConfig config, List<Entry> entries,
      long nextGeneration) {
    this.directory = directory;
    this.config = config;
    this.entries = List.copyOf(entries);
    this.nextGeneration = nextGeneration;
  }

  /** Opens every range file in {@code directory} (created when missing). */
  public static DatastoreSet open(Path directory, DatastoreConfig config) throws IOException {
    Files.createDirectories(directory);
    List<Entry> found = new ArrayList<>();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "range-*.fds")) {
      for (Path file : files) {
        Matcher m = NAME.matcher(file.getFileName().toString());
        if (!m.matches()) {
          throw new IOException(file + ": not a range file name (range-<16 hex>-<16 hex>-g<n>.fds)");
        }
        KeyRange range = new KeyRange(Long.parseUnsignedLong(m.group(1), 16),
            Long.parseUnsignedLong(m.group(2), 16));
        found.add(new Entry(range, Long.parseLong(m.group(3)), file, null));
      }
    }
    found.sort(Comparator.comparingLong(Entry::generation).reversed());
    List<Entry> kept = new ArrayList<>();
    for (Entry e : found) {
      if (kept.stream().anyMatch(k -> k.range().overlaps(e.range()))) {
        LOG.warn("{}: range {} is covered by newer files (an interrupted split or merge); "
            + "deleting it", e.file(), e.range());
        deleteFiles(e.file());
      } else {
        kept.add(e);
      }
    }
    List<Entry> opened = new ArrayList<>();
    long maxGeneration = 0;
    try {
      for (Entry e : kept) {
        opened.add(new Entry(e.range(), e.generation(), e.file(),
            Datastore.open(e.file(), config)));
        maxGeneration = Math.max(maxGeneration, e.generation());
      }
    } catch (IOException | RuntimeException ex) {
      for (Entry e : opened) {
        closeQuietly(e.store(), ex);
      }
      throw ex;
    }
    return new DatastoreSet(directory, config, opened, maxGeneration + 1);
  }

  /** Adds an empty datastore for {@code range}, which must not overlap an existing one. */
  public synchronized Datastore create(KeyRange range) throws IOException {
    checkOpen();
    for (Entry e : entries) {
      if (e.range().overlaps(range)) {
        throw new IllegalArgumentException("range " + range + " overlaps " + e.range()
            + " held in " + e.file());
      }
    }
    Entry e = openNew(range);
    replace(List.of(), List.of(e));
    return e.store();
  }

  private Entry openNew(KeyRange range) throws IOException {
    long generation = nextGeneration++;
    Path file = StoreFiles.rangeFile(directory, range, generation);
    return new Entry(range, generation, file, Datastore.open(file, config));
  }

  /** The ranges held, in no particular order. */
  public List<KeyRange> ranges() {
    return entries.stream().map(Entry::range).toList();
  }

  /** The datastores by range. */
  public Map<KeyRange, Datastore> datastores() {
    Map<KeyRange, Datastore> out = new LinkedHashMap<>();
    for (Entry e : entries) {
      out.put(e.range(), e.store());
    }
    return out;
  }

  /**
   * The datastore whose range holds {@code key}.
   *
   * @throws IllegalArgumentException when no range holds it
   */
  public Datastore datastoreFor(byte[] key) {
    long position = RingPositions.of(key);
    for (Entry e : entries) {
      if (e.range().contains(position)) {
        return e.store();
      }
    }
    throw new IllegalArgumentException("no range of " + directory + " holds ring position "
        + Long.toUnsignedString(position, 16));
  }

  public void put(byte[] key, byte[] value) throws IOException {
    datastoreFor(key).put(key, value);
  }

  public byte[] get(byte[] key) throws IOException {
    return datastoreFor(key).get(key);
  }

  public boolean delete(byte[] key) throws IOException {
    return datastoreFor(key).delete(key);
  }

  /**
   * Splits {@code range} at {@code position} into {@code (start, position]} and
   * {@code (position, end]}.
   */
  public synchronized List<KeyRange> split(KeyRange range, long position) throws IOException {
    checkOpen();
    Entry old = entry(range);
    if (!range.contains(position) || position == range.endInclusive()) {
      throw new IllegalArgumentException("split position "
          + Long.toUnsignedString(position, 16) + " is not strictly inside " + range);
    }
    KeyRange low = new KeyRange(range.startExclusive(), position);
    KeyRange high = new KeyRange(position, range.endInclusive());
    long generation = nextGeneration++;
    Path lowFile = fileFor(low, generation);
    Path highFile = fileFor(high, generation);
    RangeMoves.SplitResult parts = RangeMoves.split(old.store(), position, lowFile, highFile);
    Entry lowEntry = new Entry(low, generation, lowFile, parts.lower());
    Entry highEntry = new Entry(high, generation, highFile, parts.upper());
    replace(List.of(old), List.of(lowEntry, highEntry));
    return List.of(low, high);
  }

  /** Merges two adjacent ranges ({@code a}'s end is {@code b}'s start) into one file. */
  public synchronized KeyRange merge(KeyRange a, KeyRange b) throws IOException {
    checkOpen();
    Entry first = entry(a);
    Entry second = entry(b);
    if (a.endInclusive() != b.startExclusive()) {
      throw new IllegalArgumentException("ranges " + a + " and " + b + " are not adjacent");
    }
    KeyRange merged = new KeyRange(a.startExclusive(), b.endInclusive());
    Entry target = openNew(merged);
    try {
      RangeMoves.merge(target.store(), first.store());
      RangeMoves.merge(target.store(), second.store());
    } catch (IOException | RuntimeException e) {
      closeQuietly(target.store(), e);
      deleteFiles(target.file());
      throw e;
    }
    replace(List.of(first, second), List.of(target));
    return merged;
  }

  /** Closes and deletes the datastore of {@code range} (its data moved elsewhere). */
  public synchronized void drop(KeyRange range) throws IOException {
    checkOpen();
    replace(List.of(entry(range)), List.of());
  }

  private Path fileFor(KeyRange range, long generation) {
    return StoreFiles.rangeFile(directory, range, generation);
  }

  private Entry entry(KeyRange range) {
    for (Entry e : entries) {
      if (e.range().equals(range)) {
        return e;
      }
    }
    throw new IllegalArgumentException("no datastore for range " + range + " in " + directory);
  }

  /** Publishes the new entries, then closes and deletes the old ones. */
  private void replace(List<Entry> removed, List<Entry> added) throws IOException {
    List<Entry> next = new ArrayList<>(entries);
    next.removeAll(removed);
    next.addAll(added);
    entries = List.copyOf(next);
    for (Entry e : removed) {
      e.store().close();
      deleteFiles(e.file());
    }
  }

  /** Deletes a range file and its checkpoint, durably: a dropped range must not come back. */
  private static void deleteFiles(Path file) throws IOException {
    boolean deleted = Files.deleteIfExists(file);
    deleted |= Files.deleteIfExists(IndexCheckpoint.pathFor(file));
    if (deleted) {
      Directories.syncParentOf(file);
    }
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException(directory + ": datastore set is closed");
    }
  }

  /** Closes every datastore; idempotent; the first failure is thrown after all were tried. */
  @Override
  public synchronized void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    IOException failure = null;
    for (Entry e : entries) {
      try {
        e.store().close();
      } catch (IOException ex) {
        if (failure == null) {
          failure = ex;
        } else {
          failure.addSuppressed(ex);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  private static void closeQuietly(Datastore store, Exception primary) {
    try {
      store.close();
    } catch (IOException e) {
      primary.addSuppressed(e);
    }
  }
}

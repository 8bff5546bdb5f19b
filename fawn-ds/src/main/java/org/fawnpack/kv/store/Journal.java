package org.fawnpack.kv.store;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One write-ahead journal shared by many datastores (a node's), so that one force makes the
 * writes of all of them durable: with a file per key range, a node that forces each file on its
 * own runs a force per dirty file per round, each a system call and a device flush.
 *
 * <p>A datastore opened with a journal ({@link DatastoreConfig.Builder#journal}) copies every
 * put and delete into it, under its writer lock, after appending it to its own log; its
 * {@link Datastore#whenDurable} then completes when the journal is forced, and its own file is
 * forced lazily (interval, writeback, split, compaction, close). After a crash,
 * {@link #open} replays what the files lack before anything opens them ({@link JournalReplay}).
 *
 * <p>The journal is written in segments ({@link JournalFormat}). A full segment is sealed and
 * deleted once every datastore that wrote to it has forced its own file past its last write
 * there, or closed; sealing asks those datastores to force, so segments do not pile up.
 *
 * <p>Thread-safe. Lock order: a datastore's writer lock, then the journal's.
 */
public final class Journal implements Closeable {

  private static final Logger LOG = LoggerFactory.getLogger(Journal.class);
  static final long DEFAULT_SEGMENT_BYTES = 16L << 20;
  private static final int INITIAL_BUFFER_BYTES = 64 << 10;
  /** A buffer a large value grew past this is dropped after its pass, not kept. */
  private static final int KEPT_BUFFER_BYTES = 1 << 20;

  private final Path directory;
  private final long segmentBytes;
  private final Executor forcers;
  private final ReentrantLock lock = new ReentrantLock();
  /** One force pass at a time: the durable points it sets must only rise. */
  private final ReentrantLock forceTurn = new ReentrantLock();
  // Guarded by lock.
  private ByteBuffer buffer = ByteBuffer.allocate(INITIAL_BUFFER_BYTES);
  /** The buffer the last pass wrote, reused by the next; guarded by forceTurn and lock. */
  private ByteBuffer spare = ByteBuffer.allocate(INITIAL_BUFFER_BYTES);
  private JournalSegment<JournalHandle> current;
  private final Map<JournalHandle, Long> dirty = new LinkedHashMap<>();
  private final List<JournalSegment<JournalHandle>> sealed = new ArrayList<>();
  private boolean forceQueued;
  private boolean closed;
  private final LongAdder writes = new LongAdder();
  private final LongAdder forces = new LongAdder();
  private IOException failure;

  private Journal(Path directory, long segmentBytes, Executor forcers, long nextSegment) {
    this.directory = directory;
    this.segmentBytes = segmentBytes;
    this.forcers = forcers;
    this.current = new JournalSegment<>(directory, nextSegment);
  }

  /**
   * Opens the journal in {@code directory} (created when absent). What a crash left there is
   * first replayed into the datastore files it names, each opened with {@code storeConfig},
   * forced and closed ({@link JournalReplay}); then the old segments are deleted. Call it
   * before any datastore of the journal is opened.
   *
   * @throws CorruptLogException naming the segment and offset when a sealed segment is damaged
   */
  public static Journal open(Path directory, DatastoreConfig storeConfig) throws IOException {
    return open(directory, storeConfig, DEFAULT_SEGMENT_BYTES);
  }

  static Journal open(Path directory, DatastoreConfig storeConfig, long segmentBytes)
      throws IOException {
    Files.createDirectories(directory);
    long next = JournalReplay.replay(directory, storeConfig.toBuilder().journal(null).build());
    return new Journal(directory, segmentBytes, LogWriters.forcers(), next);
  }

  public Path directory() {
    return directory;
  }

  JournalHandle attach(SyncDriver driver, Runnable forceFile, DataLog opened) {
    return new JournalHandle(this, driver, forceFile, opened);
  }

  /** Copies a write into the journal; the caller holds the datastore's writer lock. */
  void append(JournalHandle h, DataLog log, byte kind, byte[] key, byte[] value, long sequence)
      throws IOException {
    lock.lock();
    try {
      if (failure != null) {
        throw new IOException(directory + ": an earlier journal force failed", failure);
      }
      if (closed) {
        throw new IOException(directory + ": the journal is closed");
      }
      if (h.namedIn != current || h.namedLogId != log.logId() || h.forcedSinceName) {
        byte[] path = log.path().toAbsolutePath().toString().getBytes(StandardCharsets.UTF_8);
        h.namedIn = current;
        h.namedLogId = log.logId();
        h.id = current.nextId();
        h.forcedSinceName = false;
        reserve(JournalFormat.nameBytes(path));
        JournalFormat.putName(buffer, h.id, h.namedLogId, h.forcedBytes(log), path);
      }
      reserve(JournalFormat.writeBytes(kind, key, value));
      JournalFormat.putWrite(buffer, kind, h.id, sequence, key, value);
      current.lastSequences().put(h, sequence);
      dirty.put(h, sequence);
      writes.increment();
    } finally {
      lock.unlock();
    }
  }

  private void reserve(int bytes) {
    if (buffer.remaining() < bytes) {
      ByteBuffer grown = ByteBuffer.allocate(Math.max(buffer.capacity() * 2,
          buffer.position() + bytes));
      buffer.flip();
      grown.put(buffer);
      buffer = grown;
    }
    current.grow(bytes);
  }

  /** Makes sure a force pass runs after this call; the waiters hang on their drivers. */
  void requestForce(JournalHandle h) {
    boolean queue;
    IOException refused = null;
    lock.lock();
    try {
      if (failure != null || closed) {
        refused = failure != null
            ? new IOException(directory + ": an earlier journal force failed", failure)
            : new IOException(directory + ": the journal is closed");
      }
      queue = refused == null && !forceQueued;
      forceQueued |= queue;
    } finally {
      lock.unlock();
    }
    if (refused != null) {
      h.driver.failWaiters(refused); // none of its writes can be forced any more
      return;
    }
    if (queue) {
      forcers.execute(this::forceWhileDirty);
    }
  }

  private void forceWhileDirty() {
    while (true) {
      lock.lock();
      try {
        if (dirty.isEmpty() || closed) {
          forceQueued = false;
          return;
        }
      } finally {
        lock.unlock();
      }
      forcePass();
    }
  }

  /**
   * Writes and forces what was appended, then tells each datastore up to which sequence its
   * writes are durable. A failure fails every waiter and every later write.
   */
  private void forcePass() {
    forceTurn.lock();
    try {
      Map<JournalHandle, Long> covered;
      ByteBuffer toWrite;
      JournalSegment<JournalHandle> segment;
      JournalSegment<JournalHandle> next = null;
      lock.lock();
      try {
        covered = new LinkedHashMap<>(dirty);
        dirty.clear();
        toWrite = buffer.flip();
        buffer = spare != null ? spare.clear() : ByteBuffer.allocate(INITIAL_BUFFER_BYTES);
        spare = null;
        segment = current;
        if (segment.bytes() >= segmentBytes) {
          next = new JournalSegment<>(directory, segment.number() + 1);
          current = next;
        }
      } finally {
        lock.unlock();
      }
      try {
        segment.writeAndForce(toWrite);
      } catch (IOException e) {
        fail(e, covered);
        return;
      }
      forces.increment();
      spare = toWrite.capacity() <= KEPT_BUFFER_BYTES ? toWrite : null;
      covered.forEach((h, sequence) -> h.driver.advanceTo(sequence));
      if (next != null) {
        seal(segment);
      }
    } finally {
      forceTurn.unlock();
    }
  }

  private void fail(IOException e, Map<JournalHandle, Long> covered) {
    LOG.error("{}: forcing the journal failed; its datastores refuse writes from now on",
        directory, e);
    List<JournalHandle> waiting;
    lock.lock();
    try {
      failure = e;
      waiting = new ArrayList<>(covered.keySet());
      waiting.addAll(dirty.keySet());
    } finally {
      lock.unlock();
    }
    waiting.forEach(h -> h.driver.failWaiters(e));
  }

  /** A full segment: its writers are asked to force their own files, then it can go. */
  private void seal(JournalSegment<JournalHandle> segment) {
    List<JournalHandle> writers;
    lock.lock();
    try {
      sealed.add(segment);
      writers = new ArrayList<>(segment.lastSequences().keySet());
    } finally {
      lock.unlock();
    }
    segment.closeChannel();
    retireCovered();
    for (JournalHandle h : writers) {
      forcers.execute(h.forceFile);
    }
  }

  /** {@code h}'s file was forced through {@code sequence}. */
  void forcedThrough(JournalHandle h, long sequence) {
    lock.lock();
    try {
      h.forcedThrough = Math.max(h.forcedThrough, sequence);
      h.forcedSinceName = true;
    } finally {
      lock.unlock();
    }
    retireCovered();
  }

  /** A datastore closed after forcing its file: it needs nothing of the journal any more. */
  void detach(JournalHandle h) {
    lock.lock();
    try {
      h.forcedThrough = Long.MAX_VALUE;
      current.lastSequences().remove(h);
      dirty.remove(h);
    } finally {
      lock.unlock();
    }
    retireCovered();
  }

  /**
   * Deletes each sealed segment all of whose writers forced their files past it. Under the lock,
   * so that none goes after {@link #close}: a closed journal's segments are the next open's.
   */
  private void retireCovered() {
    lock.lock();
    try {
      if (closed) {
        return;
      }
      List<JournalSegment<JournalHandle>> done = new ArrayList<>();
      for (JournalSegment<JournalHandle> s : sealed) {
        s.lastSequences().entrySet().removeIf(e -> e.getKey().forcedThrough >= e.getValue());
        if (s.lastSequences().isEmpty()) {
          done.add(s);
        }
      }
      sealed.removeAll(done);
      for (JournalSegment<JournalHandle> s : done) {
        try {
          Files.deleteIfExists(s.path());
          LOG.debug("{}: deleted journal segment {}", directory, s.path().getFileName());
        } catch (IOException e) {
          // Left for the next open, whose replay finds every write it holds already in place.
          LOG.warn("{}: could not delete journal segment {}: {}", directory, s.path(),
              e.toString());
        }
      }
    } finally {
      lock.unlock();
    }
  }

  /** Writes copied into the journal since it opened. */
  public long writes() {
    return writes.sum();
  }

  /** Forces of the journal since it opened: {@link #writes()} over this is the batching. */
  public long forces() {
    return forces.sum();
  }

  /** Sealed segments not yet deleted (for tests and metrics). */
  int sealedSegments() {
    lock.lock();
    try {
      return sealed.size();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Forces what is pending and closes the segment files. Close the datastores first: a write
   * made after this fails.
   */
  @Override
  public void close() throws IOException {
    forceTurn.lock();
    try {
      Map<JournalHandle, Long> covered;
      ByteBuffer rest;
      lock.lock();
      try {
        if (closed) {
          return;
        }
        closed = true;
        covered = new LinkedHashMap<>(dirty);
        dirty.clear();
        rest = buffer.flip();
      } finally {
        lock.unlock();
      }
      try {
        if (rest.hasRemaining()) {
          current.writeAndForce(rest);
        }
      } catch (IOException e) {
        fail(e, covered);
        throw e;
      } finally {
        current.closeChannel();
        sealed.forEach(JournalSegment::closeChannel);
      }
      covered.forEach((h, sequence) -> h.driver.advanceTo(sequence));
    } finally {
      forceTurn.unlock();
    }
  }

  @Override
  public String toString() {
    return "Journal[" + directory + "]";
  }
}

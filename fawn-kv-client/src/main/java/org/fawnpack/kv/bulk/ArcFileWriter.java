package org.fawnpack.kv.bulk;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;
import org.fawnpack.kv.ring.RingHash;
import org.fawnpack.kv.store.Datastore;
import org.fawnpack.kv.store.DatastoreConfig;
import org.fawnpack.kv.store.EngineKeys;
import org.fawnpack.kv.store.KeyRange;
import org.fawnpack.kv.store.SyncPolicy;
import org.fawnpack.kv.wire.ProtocolLimits;

/**
 * Writes one arc's records as a FAWN-DS file, the form a bulk load attaches: each key stored
 * under its ring position as the back-ends store it, numbered 1, 2, ... in the order added (a
 * key added twice keeps its last value, as a later put would). A key outside the arc is
 * refused by name: the file would put it where no get looks. Forced once, at {@link #finish}.
 */
public final class ArcFileWriter implements AutoCloseable {
  /** The finished file: its path, bytes, CRC32C, and records added. */
  public record Written(Path file, long bytes, int crc32c, long records) {}

  private final RingHash hash;
  private final KeyRange arc;
  private final Path file;
  private final Datastore store;
  private long records;
  private boolean finished;

  /** A new file at {@code file} (it must not exist) for {@code arc} of a ring keyed {@code hash}. */
  public ArcFileWriter(RingHash hash, KeyRange arc, Path file, long expectedKeys)
      throws IOException {
    if (java.nio.file.Files.exists(file)) {
      throw new IOException("an arc file for a bulk load must be new: " + file + " exists");
    }
    this.hash = hash;
    this.arc = arc;
    this.file = file;
    this.store = Datastore.open(file, DatastoreConfig.builder().sync(SyncPolicy.NONE)
        .checkpoint(false).expectedKeys(Math.max(64, expectedKeys)).build());
  }

  /** Adds a put of {@code key}; refused (by name) when the key cannot be stored or is elsewhere. */
  public void put(byte[] key, byte[] value) throws IOException {
    String problem = ProtocolLimits.keyProblem(key);
    if (problem != null) {
      throw new IllegalArgumentException("a bulk load cannot hold this key: " + problem);
    }
    long position = hash.position(key);
    if (!arc.contains(position)) {
      throw new IllegalArgumentException("a key at ring position " + Long.toHexString(position)
          + " is outside arc " + arc + " (the file would be read at no tail)");
    }
    store.put(EngineKeys.of(position, key), value);
    records++;
  }

  /** Forces and closes the file; returns its size and CRC32C. */
  public Written finish() throws IOException {
    store.sync();
    store.close();
    finished = true;
    CRC32C crc = new CRC32C();
    long bytes = 0;
    ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 16);
    try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
      int n;
      while ((n = in.read(buffer)) > 0) {
        bytes += n;
        buffer.flip();
        crc.update(buffer);
        buffer.clear();
      }
    }
    return new Written(file, bytes, (int) crc.getValue(), records);
  }

  @Override
  public void close() throws IOException {
    if (!finished) {
      store.close();
    }
  }
}

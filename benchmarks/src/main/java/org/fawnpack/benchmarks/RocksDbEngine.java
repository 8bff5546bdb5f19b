package org.fawnpack.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.rocksdb.FlushOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteOptions;

/** RocksDB with its default options and the write-ahead log off; a memtable flush at the end. */
final class RocksDbEngine implements KvEngine {

  static final String NAME = "rocksdb";
  private final Options options;
  private final WriteOptions writeOptions;
  private final RocksDB db;

  RocksDbEngine(Path dir) throws IOException {
    RocksDB.loadLibrary();
    Files.createDirectories(dir);
    options = new Options().setCreateIfMissing(true);
    writeOptions = new WriteOptions().setDisableWAL(true).setSync(false);
    try {
      db = RocksDB.open(options, dir.toString());
    } catch (RocksDBException e) {
      throw new IOException("cannot open RocksDB in " + dir, e);
    }
  }

  @Override
  public String name() {
    return NAME + " " + RocksDB.rocksdbVersion();
  }

  @Override
  public void put(byte[] key, byte[] value) throws IOException {
    try {
      db.put(writeOptions, key, value);
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
  }

  @Override
  public byte[] get(byte[] key) throws IOException {
    try {
      return db.get(key);
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
  }

  @Override
  public void finishLoad() throws IOException {
    try (FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
      db.flush(flush);
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
  }

  @Override
  public Map<String, String> selfReported() throws IOException {
    Map<String, String> out = new LinkedHashMap<>();
    try {
      for (String p : new String[] {"rocksdb.estimate-table-readers-mem",
          "rocksdb.cur-size-all-mem-tables", "rocksdb.block-cache-usage"}) {
        out.put(p, db.getProperty(p));
      }
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
    return out;
  }

  @Override
  public void close() {
    db.close();
    writeOptions.close();
    options.close();
  }
}

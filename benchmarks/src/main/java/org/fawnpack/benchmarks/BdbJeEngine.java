package org.fawnpack.benchmarks;

import com.sleepycat.je.Database;
import com.sleepycat.je.DatabaseConfig;
import com.sleepycat.je.DatabaseEntry;
import com.sleepycat.je.Environment;
import com.sleepycat.je.EnvironmentConfig;
import com.sleepycat.je.LockMode;
import com.sleepycat.je.OperationStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Berkeley DB Java Edition, non-transactional, one deferred-write database (no log write per
 * put; {@code Database.sync()} at the end), JE's default cache (60 % of the heap).
 */
final class BdbJeEngine implements KvEngine {

  static final String NAME = "bdb-je";
  private final Environment env;
  private final Database db;

  BdbJeEngine(Path dir) throws IOException {
    Files.createDirectories(dir);
    EnvironmentConfig envConfig = new EnvironmentConfig();
    envConfig.setAllowCreate(true);
    envConfig.setTransactional(false);
    env = new Environment(dir.toFile(), envConfig);
    DatabaseConfig dbConfig = new DatabaseConfig();
    dbConfig.setAllowCreate(true);
    dbConfig.setDeferredWrite(true);
    db = env.openDatabase(null, "bench", dbConfig);
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void put(byte[] key, byte[] value) {
    db.put(null, new DatabaseEntry(key), new DatabaseEntry(value));
  }

  @Override
  public byte[] get(byte[] key) {
    DatabaseEntry value = new DatabaseEntry();
    OperationStatus status = db.get(null, new DatabaseEntry(key), value,
        LockMode.READ_UNCOMMITTED);
    return status == OperationStatus.SUCCESS ? value.getData() : null;
  }

  @Override
  public void finishLoad() {
    db.sync();
    env.sync();
  }

  @Override
  public Map<String, String> selfReported() {
    Map<String, String> out = new LinkedHashMap<>();
    out.put("je cache bytes", Long.toString(env.getStats(null).getCacheTotalBytes()));
    return out;
  }

  @Override
  public void close() {
    db.close();
    env.close();
  }
}

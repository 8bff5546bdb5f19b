package org.fawnpack.benchmarks;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One key-value store under test, driven the same way for every engine: a load of puts
 * without a sync per write and one sync at the end, then gets from one or more threads.
 */
interface KvEngine extends AutoCloseable {

  /** The engine's name in the report. */
  String name();

  void put(byte[] key, byte[] value) throws IOException;

  /** The value, or null. Called from several threads at once. */
  byte[] get(byte[] key) throws IOException;

  /** Makes everything loaded durable (the one sync at the end of the load). */
  void finishLoad() throws IOException;

  /** Extra figures the engine reports about itself (e.g. RocksDB's memory properties). */
  default Map<String, String> selfReported() throws IOException {
    return new LinkedHashMap<>();
  }

  @Override
  void close() throws IOException;

  /** Opens the named engine in {@code dir} (created empty), sized for {@code entries}. */
  static KvEngine open(String name, Path dir, long entries) throws IOException {
    return switch (name) {
      case FawnDsEngine.NAME -> new FawnDsEngine(dir, entries);
      case BdbJeEngine.NAME -> new BdbJeEngine(dir);
      case RocksDbEngine.NAME -> new RocksDbEngine(dir);
      default -> throw new IllegalArgumentException("unknown engine '" + name + "' (known: "
          + FawnDsEngine.NAME + ", " + BdbJeEngine.NAME + ", " + RocksDbEngine.NAME + ")");
    };
  }
}

package org.fawnpack.kv.hadoop;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.SequenceFile;
import org.fawnpack.kv.client.FawnKvClient;

/**
 * Puts a bulk load's committed files into the cluster: {@code fawn.kv.output.commit-threads}
 * files at a time, each read in order and sent {@code fawn.kv.output.batch-records} puts at a
 * time through one client (whose connections the threads share). The first failure stops the
 * rest and is thrown with the file's name.
 */
final class StagedFileLoader {
  /** What a load put. */
  record Loaded(int files, long records, long bytes, long millis) {}

  private final KvClusterAccess cluster;
  private final Configuration conf;
  private final int batch;
  private final int threads;

  StagedFileLoader(KvClusterAccess cluster, Configuration conf) {
    this.cluster = cluster;
    this.conf = conf;
    this.batch = KvInputKeys.read(KvOutputKeys.BATCH_RECORDS, conf);
    this.threads = KvInputKeys.read(KvOutputKeys.COMMIT_THREADS, conf);
  }

  Loaded load(Path staging) throws IOException {
    long start = System.nanoTime();
    FileSystem fs = staging.getFileSystem(conf);
    List<Path> files = new ArrayList<>();
    for (FileStatus status : fs.listStatus(staging,
        p -> p.getName().startsWith(FawnKvOutputFormat.STAGED_PREFIX))) {
      files.add(status.getPath());
    }
    AtomicLong records = new AtomicLong();
    AtomicLong bytes = new AtomicLong();
    try (FawnKvClient client = cluster.client(conf)) {
      ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(threads,
          files.size())), r -> {
            Thread t = new Thread(r, "fawn-kv-bulk-load");
            t.setDaemon(true);
            return t;
          });
      try {
        List<Future<?>> loads = new ArrayList<>();
        for (Path file : files) {
          loads.add(pool.submit(() -> {
            putFile(client, fs, file, records, bytes);
            return null;
          }));
        }
        for (int i = 0; i < loads.size(); i++) {
          awaitLoad(loads.get(i), files.get(i));
        }
      } finally {
        pool.shutdownNow();
      }
    }
    return new Loaded(files.size(), records.get(), bytes.get(),
        (System.nanoTime() - start) / 1_000_000);
  }

  private void putFile(FawnKvClient client, FileSystem fs, Path file, AtomicLong records,
      AtomicLong bytes) throws IOException {
    List<byte[]> keys = new ArrayList<>(batch);
    List<byte[]> values = new ArrayList<>(batch);
    BytesWritable key = new BytesWritable();
    BytesWritable value = new BytesWritable();
    try (SequenceFile.Reader reader = new SequenceFile.Reader(conf,
        SequenceFile.Reader.file(fs.makeQualified(file)))) {
      while (reader.next(key, value)) {
        keys.add(key.copyBytes());
        values.add(value.copyBytes());
        bytes.addAndGet(key.getLength() + (long) value.getLength());
        if (keys.size() == batch) {
          send(client, keys, values, records);
        }
      }
      send(client, keys, values, records);
    }
  }

  private static void send(FawnKvClient client, List<byte[]> keys, List<byte[]> values,
      AtomicLong records) throws IOException {
    if (keys.isEmpty()) {
      return;
    }
    client.putAll(keys, values);
    records.addAndGet(keys.size());
    keys.clear();
    values.clear();
  }

  private static void awaitLoad(Future<?> load, Path file) throws IOException {
    try {
      load.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while loading " + file);
    } catch (ExecutionException e) {
      throw new IOException("bulk load of " + file + " failed: " + e.getCause().getMessage(),
          e.getCause());
    }
  }
}

package org.fawnpack.kv.loopback;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.fawnpack.kv.auth.ClusterSecret;
import org.fawnpack.kv.client.FawnKvClient;
import org.fawnpack.kv.client.KvException;

/**
 * Clients for the demo and the benchmarks: a bulk load, gets for a while with keys drawn as
 * the caller likes (Zipf-skewed, biased to a popular set), and writers that remember
 * what each of their keys may hold (the last acknowledged value, and any value written after
 * it whose outcome was unknown) so every acknowledged write can be checked afterwards.
 */
public final class LoopbackWorkload {
  private static final Duration DEADLINE = Duration.ofSeconds(15);

  private final List<InetSocketAddress> frontEnds;
  private final ClusterSecret secret;

  /** Which key (0..n-1) a client asks next. */
  public interface KeyChooser {
    int next(Random random);
  }

  public LoopbackWorkload(List<InetSocketAddress> frontEnds, ClusterSecret secret) {
    this.frontEnds = List.copyOf(frontEnds);
    this.secret = secret;
  }

  public static byte[] key(int i) {
    return ("key-" + i).getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Puts keys 0..count-1 with {@code valueBytes}-byte values in batches of 500, from
   * {@code loaders} clients at once; puts per second.
   */
  public double load(int count, int valueBytes, int loaders) throws Exception {
    long start = System.nanoTime();
    ExecutorService pool = Executors.newFixedThreadPool(loaders);
    List<Future<?>> done = new ArrayList<>();
    for (int l = 0; l < loaders; l++) {
      int loader = l;
      done.add(pool.submit(() -> {
        try (FawnKvClient kv = FawnKvClient.connect(frontEnds, DEADLINE, secret)) {
          for (int from = loader * 500; from < count; from += loaders * 500) {
            List<byte[]> keys = new ArrayList<>();
            List<byte[]> values = new ArrayList<>();
            for (int i = from; i < Math.min(count, from + 500); i++) {
              keys.add(key(i));
              values.add(valueOf(i, valueBytes));
            }
            kv.putAll(keys, values);
          }
        }
        return null;
      }));
    }
    pool.shutdown();
    for (Future<?> f : done) {
      f.get();
    }
    return count / ((System.nanoTime() - start) / 1e9);
  }

  private static byte[] valueOf(int i, int valueBytes) {
    byte[] value = new byte[valueBytes];
    Arrays.fill(value, (byte) ('a' + i % 26));
    return value;
  }

  /** Loaded keys that no longer read back with the value {@link #load} gave them. */
  public List<String> missingLoadedKeys(int count) throws IOException {
    List<String> missing = new ArrayList<>();
    try (FawnKvClient kv = FawnKvClient.connect(frontEnds, DEADLINE, secret)) {
      for (int from = 0; from < count; from += 500) {
        List<byte[]> keys = new ArrayList<>();
        for (int i = from; i < Math.min(count, from + 500); i++) {
          keys.add(key(i));
        }
        List<byte[]> values = kv.getAll(keys);
        for (int k = 0; k < keys.size(); k++) {
          byte[] v = values.get(k);
          int i = from + k;
          if (v == null || v.length == 0 || v[0] != (byte) ('a' + i % 26)) {
            missing.add("key-" + i + (v == null ? " is gone" : " holds another value"));
          }
        }
      }
    }
    return missing;
  }

  /** Ranks 0..n-1 drawn with probability proportional to 1 / (rank + 1)^s. */
  public static final class Zipf implements KeyChooser {
    private final double[] cumulative;

    public Zipf(int n, double s) {
      cumulative = new double[n];
      double sum = 0;
      for (int i = 0; i < n; i++) {
        sum += 1 / Math.pow(i + 1, s);
        cumulative[i] = sum;
      }
      for (int i = 0; i < n; i++) {
        cumulative[i] /= sum;
      }
    }

    @Override
    public int next(Random random) {
      int at = Arrays.binarySearch(cumulative, random.nextDouble());
      return Math.min(cumulative.length - 1, at >= 0 ? at : -at - 1);
    }
  }

  /** Gets and failed gets of a timed run. */
  public record Gets(long done, long failed, double seconds) {
    public double perSecond() {
      return done / seconds;
    }
  }

  /** {@code threads} clients get keys drawn by {@code chooser} for {@code seconds}. */
  public Gets gets(KeyChooser chooser, int threads, double seconds) throws Exception {
    return gets(chooser, threads, 1, seconds);
  }

  /**
   * As {@link #gets(KeyChooser, int, double)}, each client keeping {@code inFlight} gets
   * outstanding: batches of that many sent at once (pipelined), the next batch once all are
   * answered. A batch with any failure counts as that many failed gets.
   */
  public Gets gets(KeyChooser chooser, int threads, int inFlight, double seconds)
      throws Exception {
    AtomicLong done = new AtomicLong();
    AtomicLong failed = new AtomicLong();
    AtomicBoolean stop = new AtomicBoolean();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Future<?>> clients = new ArrayList<>();
    long start = System.nanoTime();
    for (int t = 0; t < threads; t++) {
      Random random = new Random(t);
      clients.add(pool.submit(() -> {
        try (FawnKvClient kv = FawnKvClient.connect(frontEnds, DEADLINE, secret)) {
          List<byte[]> batch = new ArrayList<>(inFlight);
          while (!stop.get()) {
            try {
              if (inFlight == 1) {
                kv.get(key(chooser.next(random)));
              } else {
                batch.clear();
                for (int i = 0; i < inFlight; i++) {
                  batch.add(key(chooser.next(random)));
                }
                kv.getAll(batch);
              }
              done.addAndGet(inFlight);
            } catch (KvException e) {
              failed.addAndGet(inFlight);
            }
          }
        }
        return null;
      }));
    }
    try {
      Thread.sleep((long) (seconds * 1000)); // the run's length: the clients work meanwhile
    } finally {
      stop.set(true);
      pool.shutdown();
    }
    for (Future<?> client : clients) {
      client.get(60, TimeUnit.SECONDS);
    }
    return new Gets(done.get(), failed.get(), (System.nanoTime() - start) / 1e9);
  }

  /** Writers of their own keys ({@code w<writer>-<i>}), until {@link #stop}. */
  final class Writers {
    /** Per key: the values it may hold now, the last acknowledged (or absent) first. */
    private final Map<String, List<String>> allowed = new ConcurrentHashMap<>();
    private final AtomicBoolean stop = new AtomicBoolean();
    private final AtomicLong acknowledged = new AtomicLong();
    private final AtomicLong unknown = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private final ExecutorService pool;
    private final List<Future<?>> writers = new ArrayList<>();

    Writers(int count, int keysEach) {
      pool = Executors.newFixedThreadPool(count);
      for (int w = 0; w < count; w++) {
        int writer = w;
        writers.add(pool.submit(() -> write(writer, keysEach)));
      }
    }

    private Void write(int writer, int keysEach) throws IOException {
      Random random = new Random(writer);
      try (FawnKvClient kv = FawnKvClient.connect(frontEnds, DEADLINE, secret)) {
        for (long n = 0; !stop.get(); n++) {
          String key = "w" + writer + "-" + random.nextInt(keysEach);
          String value = "w" + writer + "-v" + n;
          // Before its first acknowledged write a key may still be absent (null).
          List<String> mayHold = allowed.computeIfAbsent(key,
              k -> new ArrayList<>(java.util.Collections.singletonList(null)));
          try {
            kv.put(key.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8));
            mayHold.clear(); // one writer per key: no other write can land after this one
            mayHold.add(value);
            acknowledged.incrementAndGet();
          } catch (KvException e) {
            if (e.refused()) {
              refused.incrementAndGet();
            } else {
              mayHold.add(value); // it may land, now or later
              unknown.incrementAndGet();
            }
          }
        }
      }
      return null;
    }

    void stop() throws Exception {
      stop.set(true);
      pool.shutdown();
      for (Future<?> w : writers) {
        w.get(60, TimeUnit.SECONDS);
      }
    }

    long acknowledged() {
      return acknowledged.get();
    }

    long unknown() {
      return unknown.get();
    }

    long refused() {
      return refused.get();
    }

    /** Keys whose value now is not one they may hold: each would be a lost write. */
    List<String> check() throws IOException {
      List<String> wrong = new ArrayList<>();
      try (FawnKvClient kv = FawnKvClient.connect(frontEnds, DEADLINE, secret)) {
        for (Map.Entry<String, List<String>> e : allowed.entrySet()) {
          byte[] read = kv.get(e.getKey().getBytes(StandardCharsets.UTF_8));
          String value = read == null ? null : new String(read, StandardCharsets.UTF_8);
          if (!e.getValue().contains(value)) {
            wrong.add(e.getKey() + " holds " + value + ", expected one of " + e.getValue());
          }
        }
      }
      return wrong;
    }
  }
}

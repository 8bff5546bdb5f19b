package org.fawnpack.kv.store;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The child JVM of {@link CrashTest}: runs the {@link CrashOps} stream against a store until
 * it is killed, with a thread compacting at random intervals and one reading random keys and
 * checking each value it gets. Prints "started", then "acked N" whenever the first N operations
 * are all known durable ({@link Datastore#durableSequence()}); "bad ..." if a read returns a
 * value that was never written for its key.
 *
 * <p>Arguments: file, sync policy, seed, keys, write-buffer bytes, sync interval ms, writeback
 * bytes.
 */
public final class CrashLoopChild {

  private CrashLoopChild() {}

  public static void main(String[] args) throws Exception {
    Path file = Path.of(args[0]);
    SyncPolicy policy = SyncPolicy.valueOf(args[1]);
    CrashOps ops = new CrashOps(Long.parseLong(args[2]), Integer.parseInt(args[3]));
    int keys = Integer.parseInt(args[3]);
    DatastoreConfig config = DatastoreConfig.builder().sync(policy)
        .writeBufferBytes(Integer.parseInt(args[4]))
        .syncInterval(Duration.ofMillis(Long.parseLong(args[5])))
        .writebackBytes(Long.parseLong(args[6])).build();
    Datastore ds = Datastore.open(file, config);
    daemon(() -> compactForever(ds));
    daemon(() -> readForever(ds, keys));
    System.out.println("started");
    System.out.flush();
    writeForever(ds, ops, policy);
  }

  private static void writeForever(Datastore ds, CrashOps ops, SyncPolicy policy)
      throws IOException {
    // sequences[i]: the sequence number op i wrote, 0 for a delete of an absent key.
    long[] sequences = new long[1 << 16];
    long acked = 0;
    ThreadLocalRandom random = ThreadLocalRandom.current();
    for (long i = 0; ; i++) {
      CrashOps.Op op = ops.at(i);
      long sequence;
      if (op.isPut()) {
        sequence = ds.put(CrashOps.keyOf(op.key()), op.value());
      } else {
        sequence = ds.delete(CrashOps.keyOf(op.key())) ? ds.lastSequence() : 0;
      }
      if (i - acked >= sequences.length) {
        // The window is full (its oldest slot is op i's): make every earlier op durable.
        ds.awaitDurable(ds.lastSequence());
        acked = ackedUpTo(acked, i, sequences, ds.durableSequence());
      }
      sequences[(int) (i % sequences.length)] = sequence;
      if (policy == SyncPolicy.NONE && random.nextInt(500) == 0) {
        if (sequence > 0) {
          ds.awaitDurable(sequence);
        } else {
          ds.sync();
        }
      }
      long before = acked;
      acked = ackedUpTo(acked, i + 1, sequences, ds.durableSequence());
      if (acked > before) {
        System.out.println("acked " + acked);
        System.out.flush();
      }
    }
  }

  /** How many leading ops are durable, moving on from {@code acked} up to op {@code end}. */
  private static long ackedUpTo(long acked, long end, long[] sequences, long durable) {
    long n = acked;
    while (n < end && sequences[(int) (n % sequences.length)] <= durable) {
      n++;
    }
    return n;
  }

  private static void compactForever(Datastore ds) throws Exception {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    while (true) {
      Thread.sleep(random.nextInt(100));
      ds.compact();
    }
  }

  private static void readForever(Datastore ds, int keys) throws Exception {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    while (true) {
      int key = random.nextInt(keys);
      byte[] value = ds.get(CrashOps.keyOf(key));
      if (value != null && !CrashOps.wellFormed(value, key)) {
        System.out.println("bad value for key " + key);
        System.out.flush();
      }
    }
  }

  /** A daemon thread; a failure there is printed (the parent fails on it) and ends the JVM. */
  private static void daemon(CrashTestAction action) {
    Thread t = new Thread(() -> {
      try {
        action.run();
      } catch (Throwable e) {
        System.out.println("failed " + e);
        System.out.flush();
        Runtime.getRuntime().halt(3);
      }
    });
    t.setDaemon(true);
    t.start();
  }

  @FunctionalInterface
  interface CrashTestAction {
    void run() throws Exception;
  }
}

package org.fawnpack.kv.store;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The child JVM of {@link CrashTest}: puts key i = "key-i" with {@link #valueOf(int)} for
 * i = 0, 1, 2, ... until it is killed, prints "durable N" whenever the store reports that
 * all writes up to sequence N (key N-1) are on the device, and "written N" every 1000 puts.
 */
public final class CrashWriter {

  private CrashWriter() {}

  public static void main(String[] args) throws IOException {
    Path file = Path.of(args[0]);
    SyncPolicy policy = SyncPolicy.valueOf(args[1]);
    DatastoreConfig config = DatastoreConfig.builder().sync(policy)
        .syncInterval(java.time.Duration.ofMillis(5)).build();
    Datastore ds = Datastore.open(file, config);
    long reported = 0;
    System.out.println("started");
    System.out.flush();
    for (int i = 0; ; i++) {
      ds.put(keyOf(i), valueOf(i));
      if ((i + 1) % 1000 == 0) {
        System.out.println("written " + (i + 1));
      }
      long durable = ds.durableSequence();
      if (durable > reported) {
        reported = durable;
        System.out.println("durable " + durable);
        System.out.flush();
      }
    }
  }

  static byte[] keyOf(int i) {
    return ("key-" + i).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
  }

  static byte[] valueOf(int i) {
    byte[] value = new byte[50 + i % 200];
    for (int j = 0; j < value.length; j++) {
      value[j] = (byte) (i * 31 + j);
    }
    return value;
  }
}

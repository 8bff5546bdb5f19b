package org.fawnpack.jobs.tera;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.util.Random;
import org.apache.hadoop.io.WritableComparator;
import org.junit.jupiter.api.Test;

/** The raw key comparator against a naive unsigned byte-by-byte compare. */
class SortKeyComparatorTest {

  private static int naive(byte[] a, byte[] b) {
    for (int i = 0; i < 10; i++) {
      int x = a[i] & 0xff;
      int y = b[i] & 0xff;
      if (x != y) {
        return x < y ? -1 : 1;
      }
    }
    return 0;
  }

  @Test
  void compare_rawBytes_agreesWithNaiveUnsignedCompare() throws Exception {
    Random random = new Random(42);
    WritableComparator comparator = WritableComparator.get(SortKey.class);
    for (int i = 0; i < 20_000; i++) {
      byte[] a = new byte[10];
      byte[] b = new byte[10];
      random.nextBytes(a);
      // Share a random-length prefix so late bytes (and the high bit) decide too.
      System.arraycopy(a, 0, b, 0, 10);
      int from = random.nextInt(11);
      for (int j = from; j < 10; j++) {
        b[j] = (byte) random.nextInt(256);
      }
      byte[] sa = serialized(a, 3);
      byte[] sb = serialized(b, 7);
      int expected = naive(a, b);
      assertEquals(expected, Integer.signum(comparator.compare(sa, 3, 10, sb, 7, 10)));
      SortKey ka = new SortKey();
      ka.set(a, 0);
      SortKey kb = new SortKey();
      kb.set(b, 0);
      assertEquals(expected, Integer.signum(ka.compareTo(kb)));
    }
  }

  /** The key as the map output buffer holds it, after {@code padding} other bytes. */
  private static byte[] serialized(byte[] key, int padding) throws Exception {
    SortKey k = new SortKey();
    k.set(key, 0);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.write(new byte[padding]);
    k.write(out);
    out.write(new byte[5]);
    byte[] all = bytes.toByteArray();
    assertEquals(padding + 10 + 5, all.length, "exactly 10 bytes per key, no length prefix");
    return all;
  }
}

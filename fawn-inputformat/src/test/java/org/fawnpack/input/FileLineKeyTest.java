package org.fawnpack.input;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.WritableComparator;
import org.junit.jupiter.api.Test;

class FileLineKeyTest {

  private static final String[] PARTS = {"file:", "/", "data", "in", "é", "日本", "😀", "a", "b",
    "-0", ".gz", "Z", "\u00ff", "\uffee"};

  private static String randomFile(Random random) {
    StringBuilder s = new StringBuilder();
    int n = random.nextInt(6);
    for (int i = 0; i < n; i++) {
      s.append(PARTS[random.nextInt(PARTS.length)]);
    }
    return s.toString();
  }

  private static long randomOffset(Random random) {
    return switch (random.nextInt(4)) {
      case 0 -> 0;
      case 1 -> random.nextInt(100);
      case 2 -> Long.MAX_VALUE - random.nextInt(3);
      default -> random.nextLong() & Long.MAX_VALUE;
    };
  }

  /** Oracle order: the file's UTF-8 bytes unsigned, then the offset. */
  private static final Comparator<String[]> ORACLE = (a, b) -> {
    int byFile = Arrays.compareUnsigned(a[0].getBytes(StandardCharsets.UTF_8),
        b[0].getBytes(StandardCharsets.UTF_8));
    return byFile != 0 ? byFile : Long.compare(Long.parseLong(a[1]), Long.parseLong(b[1]));
  };

  @Test
  void writeReadFields_randomKeys_roundTrip() throws IOException {
    Random random = new Random(11);
    List<String[]> keys = new ArrayList<>();
    DataOutputBuffer out = new DataOutputBuffer();
    for (int i = 0; i < 2000; i++) {
      String file = randomFile(random);
      long offset = randomOffset(random);
      keys.add(new String[] {file, Long.toString(offset)});
      new FileLineKey(file, offset).write(out);
    }
    DataInputBuffer in = new DataInputBuffer();
    in.reset(out.getData(), out.getLength());
    FileLineKey reused = new FileLineKey("left over from before", 99);
    for (String[] key : keys) {
      reused.readFields(in);
      assertEquals(key[0], reused.file());
      assertEquals(Long.parseLong(key[1]), reused.offset());
      assertEquals(new FileLineKey(key[0], Long.parseLong(key[1])), reused);
    }
    assertEquals(0, in.available(), "bytes left after reading every key");
  }

  @Test
  void compareTo_randomKeys_ordersByFileBytesThenOffset() {
    Random random = new Random(12);
    for (int i = 0; i < 20_000; i++) {
      String[] a = {randomFile(random), Long.toString(randomOffset(random))};
      String[] b = random.nextInt(4) == 0
          ? new String[] {a[0], Long.toString(randomOffset(random))}
          : new String[] {randomFile(random), Long.toString(randomOffset(random))};
      FileLineKey ka = new FileLineKey(a[0], Long.parseLong(a[1]));
      FileLineKey kb = new FileLineKey(b[0], Long.parseLong(b[1]));
      int expected = Integer.signum(ORACLE.compare(a, b));
      assertEquals(expected, Integer.signum(ka.compareTo(kb)), () -> a[0] + " vs " + b[0]);
      assertEquals(-expected, Integer.signum(kb.compareTo(ka)));
      assertEquals(expected == 0, ka.equals(kb));
      if (expected == 0) {
        assertEquals(ka.hashCode(), kb.hashCode());
      }
    }
  }

  @Test
  void compare_serializedKeys_sameOrderAsCompareTo() throws IOException {
    // The generic comparator a job would use deserializes and calls compareTo.
    WritableComparator comparator = WritableComparator.get(FileLineKey.class);
    Random random = new Random(13);
    for (int i = 0; i < 2000; i++) {
      FileLineKey a = new FileLineKey(randomFile(random), randomOffset(random));
      FileLineKey b = new FileLineKey(randomFile(random), randomOffset(random));
      DataOutputBuffer ba = new DataOutputBuffer();
      a.write(ba);
      DataOutputBuffer bb = new DataOutputBuffer();
      b.write(bb);
      assertEquals(Integer.signum(a.compareTo(b)), Integer.signum(comparator.compare(
          ba.getData(), 0, ba.getLength(), bb.getData(), 0, bb.getLength())));
    }
  }

  @Test
  void compareTo_sameFile_ordersByOffset() {
    assertEquals(-1, Integer.signum(new FileLineKey("f", 9).compareTo(new FileLineKey("f", 10))));
    assertEquals(1, Integer.signum(new FileLineKey("f", 10).compareTo(new FileLineKey("f", 9))));
    assertEquals(-1, Integer.signum(new FileLineKey("a", 1000).compareTo(new FileLineKey("b", 0))));
  }

  @Test
  void set_changingFileAndOffset_replacesBoth() {
    FileLineKey key = new FileLineKey("file:/a/long/name.txt", 5);
    key.set("file:/b", 7);
    assertEquals("file:/b", key.file());
    assertEquals(7, key.offset());
    assertEquals(new FileLineKey("file:/b", 7), key);
    key.set("file:/b", 8);
    assertEquals(new FileLineKey("file:/b", 8), key);
    key.set("", 0);
    assertEquals("", key.file());
    assertNotEquals(new FileLineKey("file:/b", 0), key);
  }

  @Test
  void toString_isFileColonOffset() {
    assertEquals("file:/x/y.log:42", new FileLineKey("file:/x/y.log", 42).toString());
  }
}

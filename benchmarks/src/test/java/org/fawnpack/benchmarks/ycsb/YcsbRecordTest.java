package org.fawnpack.benchmarks.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.StringByteIterator;
import org.junit.jupiter.api.Test;

/** A record survives encoding field by field, and bytes that are not a record are refused. */
class YcsbRecordTest {

  @Test
  void decode_ofEncoded_givesEveryFieldOrTheOnesAskedFor() {
    Random random = new Random(7);
    for (int round = 0; round < 200; round++) {
      Map<String, String> model = new HashMap<>(); // values as ISO-8859-1: one char per byte
      Map<String, ByteIterator> record = new HashMap<>();
      int fields = random.nextInt(12);
      for (int f = 0; f < fields; f++) {
        byte[] value = new byte[random.nextInt(300)];
        random.nextBytes(value);
        model.put("field" + f, new String(value, StandardCharsets.ISO_8859_1));
        record.put("field" + f, new ByteArrayByteIterator(value));
      }
      byte[] encoded = YcsbRecord.encode(record);
      Map<String, ByteIterator> all = new HashMap<>();
      YcsbRecord.decode(encoded, null, all);
      assertEquals(model, strings(all), "round " + round);
      Map<String, ByteIterator> some = new HashMap<>();
      YcsbRecord.decode(encoded, Set.of("field1", "field9", "absent"), some);
      Map<String, String> expected = new HashMap<>(model);
      expected.keySet().retainAll(Set.of("field1", "field9"));
      assertEquals(expected, strings(some), "round " + round);
    }
  }

  @Test
  void decode_ofBytesThatAreNoRecord_isRefusedByName() {
    byte[] encoded = YcsbRecord.encode(StringByteIterator.getByteIteratorMap(
        Map.of("field0", "value")));
    for (byte[] bad : List.of(Arrays.copyOf(encoded, encoded.length - 1),
        Arrays.copyOf(encoded, encoded.length + 1), new byte[] {0, 0, 0, 1, 127, 0, 0, 0},
        new byte[2])) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> YcsbRecord.decode(bad, null, new HashMap<>()));
      assertTrue(e.getMessage().startsWith("not a YCSB record"), e.getMessage());
    }
  }

  private static Map<String, String> strings(Map<String, ByteIterator> fields) {
    Map<String, String> out = new HashMap<>();
    fields.forEach((k, v) -> out.put(k, new String(v.toArray(), StandardCharsets.ISO_8859_1)));
    return out;
  }
}

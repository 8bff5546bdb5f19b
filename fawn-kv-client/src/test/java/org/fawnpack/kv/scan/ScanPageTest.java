package org.fawnpack.kv.scan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.MalformedFrameException;
import org.junit.jupiter.api.Test;

/** A SCAN_PAGE against its layout built field by field with {@link Frame.Payload}. */
class ScanPageTest {

  @Test
  void encode_matchesTheFieldByFieldLayout_andDecodesBack() throws MalformedFrameException {
    Random random = new Random(3);
    for (int count : new int[] {0, 1, 7, 300}) {
      List<ScanPage.ScanEntry> entries = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        byte[] key = new byte[1 + random.nextInt(40)];
        byte[] value = new byte[random.nextInt(3_000)];
        random.nextBytes(key);
        random.nextBytes(value);
        entries.add(new ScanPage.ScanEntry(key, value));
      }
      ScanPage page = new ScanPage(entries, 99 + count, count % 2 == 0, 1_000, 512, 4_096);
      Frame.Payload expected = new Frame.Payload().addLong(99 + count)
          .addLong(count % 2 == 0 ? 1 : 0).addLong(1_000).addLong(512).addLong(4_096)
          .addLong(count);
      entries.forEach(e -> expected.addBytes(e.key()).addBytes(e.value()));
      byte[] encoded = page.encode();
      assertArrayEquals(expected.toBytes(), encoded, count + " entries");

      ScanPage back = ScanPage.decode(new Frame((byte) 0, 1, 1, encoded));
      assertEquals(page.lastExamined(), back.lastExamined());
      assertEquals(page.done(), back.done());
      assertEquals(page.viewSequence(), back.viewSequence());
      assertEquals(page.offsetReached(), back.offsetReached());
      assertEquals(page.viewBytes(), back.viewBytes());
      assertEquals(count, back.entries().size());
      for (int i = 0; i < count; i++) {
        assertArrayEquals(entries.get(i).key(), back.entries().get(i).key());
        assertArrayEquals(entries.get(i).value(), back.entries().get(i).value());
      }
    }
  }
}

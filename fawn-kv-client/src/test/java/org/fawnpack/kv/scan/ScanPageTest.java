package org.fawnpack.kv.scan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.fawnpack.kv.store.EngineKeys;
import org.fawnpack.kv.store.KeyRange;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.MalformedFrameException;
import org.junit.jupiter.api.Test;

/**
 * A SCAN_PAGE as a back-end writes it ({@link ScanPageWriter}, from engine keys) against its
 * layout built field by field with {@link Frame.Payload}, and read back by
 * {@link ScanPage#decode}.
 */
class ScanPageTest {

  @Test
  void writer_matchesTheFieldByFieldLayout_andDecodesBack() throws MalformedFrameException {
    Random random = new Random(3);
    ScanPageWriter writer = new ScanPageWriter(); // reused: its chunks are kept
    for (int count : new int[] {300, 0, 7, 1}) { // a large page first: later ones reuse its chunks
      List<byte[]> keys = new ArrayList<>();
      List<byte[]> values = new ArrayList<>();
      writer.reset();
      long entryBytes = 0;
      for (int i = 0; i < count; i++) {
        byte[] key = new byte[1 + random.nextInt(40)];
        byte[] value = new byte[random.nextInt(i == 3 ? 200_000 : 3_000)];
        random.nextBytes(key);
        random.nextBytes(value);
        keys.add(key);
        values.add(value);
        writer.add(EngineKeys.of(random.nextLong(), key), value);
        entryBytes += key.length + value.length;
      }
      assertEquals(count, writer.count());
      assertEquals(entryBytes, writer.entryBytes());
      byte[] written = writer.finish(99 + count, count % 2 == 0, 1_000, 512, 4_096);

      Frame.Payload expected = new Frame.Payload().addLong(99 + count)
          .addLong(count % 2 == 0 ? 1 : 0).addLong(1_000).addLong(512).addLong(4_096)
          .addLong(count);
      for (int i = 0; i < count; i++) {
        expected.addBytes(keys.get(i)).addBytes(values.get(i));
      }
      assertArrayEquals(expected.toBytes(), written, count + " entries");

      ScanPage back = ScanPage.decode(new Frame((byte) 0, 1, 1, written));
      assertEquals(99 + count, back.lastExamined());
      assertEquals(count % 2 == 0, back.done());
      assertEquals(1_000, back.viewSequence());
      assertEquals(512, back.offsetReached());
      assertEquals(4_096, back.viewBytes());
      assertEquals(count, back.entries().size());
      for (int i = 0; i < count; i++) {
        assertArrayEquals(keys.get(i), back.entries().get(i).key());
        assertArrayEquals(values.get(i), back.entries().get(i).value());
      }
    }
  }

  @Test
  void prefixFilter_onEngineKeysAgreesWithANaiveMatchOfTheUserKey() {
    Random random = new Random(8);
    for (int i = 0; i < 2_000; i++) {
      byte[] prefix = new byte[random.nextInt(4)];
      byte[] user = new byte[random.nextInt(5)];
      for (int j = 0; j < prefix.length; j++) {
        prefix[j] = (byte) random.nextInt(2);
      }
      for (int j = 0; j < user.length; j++) {
        user[j] = (byte) random.nextInt(2);
      }
      ScanRequest request = new ScanRequest(1, KeyRange.wholeRing(), 0, 1 << 20, prefix, 0);
      boolean naive = user.length >= prefix.length;
      for (int j = 0; naive && j < prefix.length; j++) {
        naive = user[j] == prefix[j];
      }
      assertEquals(naive, request.wantsEngineKey(EngineKeys.of(random.nextLong(), user)));
    }
  }
}

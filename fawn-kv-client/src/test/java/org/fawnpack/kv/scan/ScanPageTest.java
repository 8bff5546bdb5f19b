package org.fawnpack.kv.scan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
    ScanPageWriter writer = new ScanPageWriter(); // reused, a new page each time
    for (int count : new int[] {300, 0, 7, 1}) { // pages grow past the size they expect
      List<byte[]> keys = new ArrayList<>();
      List<byte[]> values = new ArrayList<>();
      writer.reset(count * 100);
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
  void inPlace_writerAndReader_agreeWithTheCopyingOnes() throws MalformedFrameException {
    Random random = new Random(5);
    ScanPageWriter copying = new ScanPageWriter();
    ScanPageWriter inPlace = new ScanPageWriter();
    copying.reset(1 << 16);
    inPlace.reset(1 << 16);
    byte[] log = new byte[1 << 20]; // entries lie in it at offsets, as in a scanner's buffer
    random.nextBytes(log);
    java.nio.ByteBuffer direct = java.nio.ByteBuffer.allocateDirect(log.length).put(log);
    direct.limit(17).position(3); // a reader's position and limit, which the writer leaves
    List<int[]> spans = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      int keyLength = 8 + random.nextInt(40);
      int valueLength = random.nextInt(3_000);
      int keyOffset = random.nextInt(log.length - keyLength - valueLength);
      spans.add(new int[] {keyOffset, keyLength, valueLength});
      copying.add(java.util.Arrays.copyOfRange(log, keyOffset, keyOffset + keyLength),
          java.util.Arrays.copyOfRange(log, keyOffset + keyLength,
              keyOffset + keyLength + valueLength));
      inPlace.add(direct, keyOffset, keyLength, keyOffset + keyLength, valueLength);
    }
    byte[] page = copying.finish(7, true, 9, 10, 11);
    assertArrayEquals(page, inPlace.finish(7, true, 9, 10, 11));
    assertEquals(3, direct.position());
    assertEquals(17, direct.limit());

    ScanPageReader reader = new ScanPageReader(new Frame((byte) 0, 1, 1, page));
    ScanPage decoded = ScanPage.decode(new Frame((byte) 0, 1, 1, page));
    for (int i = 0; i < spans.size(); i++) {
      assertTrue(reader.advance());
      byte[] key = java.util.Arrays.copyOfRange(reader.array(), reader.keyOffset(),
          reader.keyOffset() + reader.keyLength());
      byte[] value = java.util.Arrays.copyOfRange(reader.array(), reader.valueOffset(),
          reader.valueOffset() + reader.valueLength());
      int[] span = spans.get(i);
      assertArrayEquals(java.util.Arrays.copyOfRange(log, span[0] + 8, span[0] + span[1]), key);
      assertArrayEquals(decoded.entries().get(i).key(), key);
      assertArrayEquals(decoded.entries().get(i).value(), value);
    }
    assertFalse(reader.advance());
  }

  @Test
  void pageBuffers_reusedOnlyOnceTheirReceiverReleasedThem_andFreedOnClose() {
    ScanPageWriter writer = new ScanPageWriter(
        new io.netty.buffer.UnpooledByteBufAllocator(true, false, false));
    io.netty.buffer.ByteBuf a = page(writer, 1);
    io.netty.buffer.ByteBuf b = page(writer, 2);
    io.netty.buffer.ByteBuf c = page(writer, 3); // a and b travel: a new buffer
    assertTrue(c != a && c != b);
    assertArrayEquals(pageOf(1), bytes(a), "a page still held is never written into");
    assertArrayEquals(pageOf(2), bytes(b));
    b.release(); // b's connection wrote it
    io.netty.buffer.ByteBuf d = page(writer, 4);
    assertTrue(d == b, "a released page's buffer is written again");
    assertArrayEquals(pageOf(4), bytes(d));
    assertArrayEquals(pageOf(1), bytes(a));
    writer.close();
    for (io.netty.buffer.ByteBuf held : new io.netty.buffer.ByteBuf[] {a, c, d}) {
      assertEquals(1, held.refCnt(), "held by its receiver alone after close");
      held.release();
    }
  }

  private static io.netty.buffer.ByteBuf page(ScanPageWriter writer, int n) {
    writer.reset(64);
    writer.add(EngineKeys.of(n, new byte[] {(byte) n}), new byte[] {(byte) n, (byte) n});
    return writer.finishBody(n, false, n, n, n);
  }

  private static byte[] pageOf(int n) {
    ScanPageWriter oracle = new ScanPageWriter();
    oracle.reset(64);
    oracle.add(EngineKeys.of(n, new byte[] {(byte) n}), new byte[] {(byte) n, (byte) n});
    return oracle.finish(n, false, n, n, n);
  }

  private static byte[] bytes(io.netty.buffer.ByteBuf page) {
    return io.netty.buffer.ByteBufUtil.getBytes(page);
  }

  @Test
  void malformedPages_refusedByTheReader() {
    ScanPageWriter writer = new ScanPageWriter();
    writer.reset(16);
    writer.add(EngineKeys.of(1, new byte[] {1, 2}), new byte[] {3, 4, 5});
    byte[] page = writer.finish(1, true, 1, 1, 1);
    byte[] truncated = java.util.Arrays.copyOf(page, page.length - 1);
    byte[] trailing = java.util.Arrays.copyOf(page, page.length + 1);
    byte[] countTooBig = page.clone();
    countTooBig[47] = 2; // the entry count's last byte: two entries said, one there
    for (byte[] bad : new byte[][] {truncated, trailing, countTooBig, new byte[47]}) {
      assertThrows(MalformedFrameException.class, () -> {
        ScanPageReader r = new ScanPageReader(new Frame((byte) 0, 1, 1, bad));
        while (r.advance()) {
          // read to the end: the lengths and the fill are checked on the way
        }
      }, bad.length + " bytes");
    }
  }

  @Test
  void prefixFilter_inPlace_agreesWithTheArrayOne() {
    Random random = new Random(9);
    for (int i = 0; i < 2_000; i++) {
      byte[] prefix = bits(random, random.nextInt(4));
      byte[] user = bits(random, random.nextInt(5));
      ScanRequest request = new ScanRequest(1, KeyRange.wholeRing(), 0, 1 << 20, prefix, 0);
      byte[] engineKey = EngineKeys.of(random.nextLong(), user);
      int at = random.nextInt(10);
      byte[] around = new byte[at + engineKey.length + random.nextInt(10)];
      java.util.Arrays.fill(around, (byte) 1); // bytes after the key must not count
      System.arraycopy(engineKey, 0, around, at, engineKey.length);
      java.nio.ByteBuffer offHeap = java.nio.ByteBuffer.allocateDirect(around.length)
          .put(around);
      assertEquals(request.wantsEngineKey(engineKey),
          request.wantsEngineKey(offHeap, at, engineKey.length));
    }
  }

  @Test
  void prefixFilter_onEngineKeysAgreesWithANaiveMatchOfTheUserKey() {
    Random random = new Random(8);
    for (int i = 0; i < 2_000; i++) {
      byte[] prefix = bits(random, random.nextInt(4));
      byte[] user = bits(random, random.nextInt(5));
      ScanRequest request = new ScanRequest(1, KeyRange.wholeRing(), 0, 1 << 20, prefix, 0);
      boolean naive = user.length >= prefix.length;
      for (int j = 0; naive && j < prefix.length; j++) {
        naive = user[j] == prefix[j];
      }
      assertEquals(naive, request.wantsEngineKey(EngineKeys.of(random.nextLong(), user)));
    }
  }

  /** {@code length} bytes of 0 or 1: short prefixes and keys that often match. */
  private static byte[] bits(Random random, int length) {
    byte[] b = new byte[length];
    for (int j = 0; j < length; j++) {
      b[j] = (byte) random.nextInt(2);
    }
    return b;
  }
}

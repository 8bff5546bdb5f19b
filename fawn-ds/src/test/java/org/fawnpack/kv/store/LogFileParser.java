package org.fawnpack.kv.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Reads a datastore file as {@code docs/fawn-ds.md} documents it, written here from that page
 * alone (no production class is used), so tests can check what is really in a file: the
 * records from the header up to the first one that fails its checks.
 */
final class LogFileParser {

  /** One record found in the file. */
  record Entry(long offset, byte kind, byte[] key, byte[] value, long sequence) {}

  private LogFileParser() {}

  /** The valid records from the start of the file up to the first invalid bytes. */
  static List<Entry> validPrefix(Path file) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file));
    int version = b.getInt(8);
    long logId = b.getLong(16);
    List<Entry> entries = new ArrayList<>();
    int at = 32;
    while (at + 20 <= b.limit()) {
      int word = b.getInt(at + 4);
      byte kind = (byte) (word >>> 24);
      int keyLength = (word & 0xffffff) + 1;
      int valueLength = b.getInt(at + 8);
      if ((kind != 1 && kind != 2) || valueLength < 0 || valueLength > (16 << 20)) {
        break;
      }
      int raw = 20 + keyLength + valueLength;
      int padded = (raw + 7) / 8 * 8;
      if (at + padded > b.limit()) {
        break;
      }
      CRC32C crc = new CRC32C();
      crc.update(b.array(), at + 4, raw - 4);
      int tag = version == 1 ? 0 : tag(logId, at);
      if (b.getInt(at) != ((int) crc.getValue() ^ tag)) {
        break;
      }
      byte[] key = new byte[keyLength];
      byte[] value = new byte[valueLength];
      b.get(at + 20, key);
      b.get(at + 20 + keyLength, value);
      entries.add(new Entry(at, kind, key, value, b.getLong(at + 12)));
      at += padded;
    }
    return entries;
  }

  /** The position tag as the format page defines it (MurmurHash3 fmix64, halves XORed). */
  static int tag(long logId, long offset) {
    long x = logId ^ (offset * 0x9E3779B97F4A7C15L);
    x ^= x >>> 33;
    x *= 0xff51afd7ed558ccdL;
    x ^= x >>> 33;
    x *= 0xc4ceb9fe1a85ec53L;
    x ^= x >>> 33;
    return (int) x ^ (int) (x >>> 32);
  }

  /** Whether a record with this sequence number is in the file's valid prefix. */
  static boolean holdsSequence(Path file, long sequence) throws IOException {
    return validPrefix(file).stream().anyMatch(e -> e.sequence() == sequence);
  }
}

package org.fawnpack.jobs.tera;

import java.util.zip.CRC32;

/**
 * Writes the sort benchmark's binary records (gensort's layout, which stock teragen writes):
 * <pre>
 *  0..9   key: the 10 high bytes of the row's 128-bit random value
 * 10..11  00 11
 * 12..43  the row number as 32 upper-case hex digits
 * 44..47  88 99 AA BB
 * 48..95  12 hex digits of the random value (digits 20..31), each repeated 4 times
 * 96..99  CC DD EE FF
 * </pre>
 * and sums the records' CRC32s, the checksum teravalidate recomputes.
 * Rows must be generated in order after a {@link #seek}. Not thread-safe.
 */
public final class RecordGenerator {
  private static final byte[] HEX = "0123456789ABCDEF".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

  private final GenSortRandom random = new GenSortRandom();
  private final CRC32 crc = new CRC32();
  private final Checksum128 checksum = new Checksum128();
  private long nextRow = -1;

  /** The next {@link #next} call generates row {@code row}. */
  public void seek(long row) {
    random.seek(row);
    nextRow = row;
  }

  /** The row the next {@link #next} call generates. */
  public long nextRow() {
    return nextRow;
  }

  /** Fills {@code record[offset .. offset+100)} with the next row and adds its CRC32. */
  public void next(byte[] record, int offset) {
    if (nextRow < 0) {
      throw new IllegalStateException("seek to the first row before generating");
    }
    random.next();
    long high = random.high();
    long low = random.low();
    for (int i = 0; i < 8; i++) {
      record[offset + i] = (byte) (high >>> (56 - 8 * i));
    }
    record[offset + 8] = (byte) (low >>> 56);
    record[offset + 9] = (byte) (low >>> 48);
    record[offset + 10] = 0x00;
    record[offset + 11] = 0x11;
    // 128-bit row number: the high 64 bits are zero for any row a long can count.
    for (int i = 0; i < 16; i++) {
      record[offset + 12 + i] = '0';
      record[offset + 28 + i] = HEX[(int) (nextRow >>> (60 - 4 * i)) & 0xf];
    }
    record[offset + 44] = (byte) 0x88;
    record[offset + 45] = (byte) 0x99;
    record[offset + 46] = (byte) 0xAA;
    record[offset + 47] = (byte) 0xBB;
    // Hex digits 20..31 of the random value are the low 48 bits of its low half.
    for (int i = 0; i < 12; i++) {
      byte digit = HEX[(int) (low >>> (44 - 4 * i)) & 0xf];
      int at = offset + 48 + 4 * i;
      record[at] = digit;
      record[at + 1] = digit;
      record[at + 2] = digit;
      record[at + 3] = digit;
    }
    record[offset + 96] = (byte) 0xCC;
    record[offset + 97] = (byte) 0xDD;
    record[offset + 98] = (byte) 0xEE;
    record[offset + 99] = (byte) 0xFF;
    crc.reset();
    crc.update(record, offset, SortRecord.BYTES);
    checksum.add(crc.getValue());
    nextRow++;
  }

  /** Sum of the CRC32s of the records generated so far. */
  public Checksum128 checksum() {
    return checksum;
  }
}

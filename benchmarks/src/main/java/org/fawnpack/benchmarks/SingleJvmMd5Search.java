package org.fawnpack.benchmarks;

import java.security.DigestException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The no-framework reference for md5search: one thread, one MessageDigest, the same values
 * (0 .. 2^bits - 1 as 4 big-endian bytes) hashed in the same way as the map does it (hash
 * written behind the value in one reused array), each compared with the target.
 */
final class SingleJvmMd5Search {

  private SingleJvmMd5Search() {}

  /** The values among 0 .. 2^bits - 1 whose MD5 is {@code target}. */
  static List<Long> search(int bits, byte[] target) throws NoSuchAlgorithmException,
      DigestException {
    MessageDigest md5 = MessageDigest.getInstance("MD5");
    byte[] buf = new byte[20];
    List<Long> found = new ArrayList<>();
    long end = 1L << bits;
    for (long v = 0; v < end; v++) {
      buf[0] = (byte) (v >>> 24);
      buf[1] = (byte) (v >>> 16);
      buf[2] = (byte) (v >>> 8);
      buf[3] = (byte) v;
      md5.update(buf, 0, 4);
      md5.digest(buf, 4, 16);
      if (Arrays.equals(buf, 4, 20, target, 0, 16)) {
        found.add(v);
      }
    }
    return found;
  }
}

package org.fawnpack.jobs.md5;

import java.io.IOException;
import java.util.HexFormat;
import org.apache.hadoop.conf.Configuration;
import org.fawnpack.input.ClusterVcores;
import org.fawnpack.input.InvalidConfigException;

/**
 * The configuration keys of md5gen and md5search. The tools set them from their options
 * ({@code --bits}, {@code --maps}, {@code --target}, {@code --no-combiner}); they can also be
 * given with {@code -D}. Each is validated here, with the key and the value in the message.
 */
public final class Md5Config {

  /** Bits of the value space: md5gen writes all 2^bits values. */
  public static final String BITS = "fawn.jobs.md5.bits";
  public static final int DEFAULT_BITS = 24;
  /** Values are written as 4-byte records, so 32 bits is the most a record holds. */
  public static final int MAX_BITS = 32;

  /** Maps (splits) of md5gen and md5search; 0 = one per vcore of the cluster. */
  public static final String MAPS = "fawn.jobs.md5.maps";
  public static final int DEFAULT_MAPS = 0;

  /** The MD5 hash md5search looks for, 32 hex digits. */
  public static final String TARGET = "fawn.jobs.md5.target";

  /** md5search: filter in a combiner before the shuffle (the reducer's filter, run earlier). */
  public static final String COMBINE = "fawn.jobs.md5.combine";
  public static final boolean DEFAULT_COMBINE = true;

  /**
   * md5search: append {@code -XX:TieredStopAtLevel=4} to the map JVM options, so a cluster that
   * starts task JVMs on the C1 compiler only (good for short tasks) still runs the MD5 loop on
   * C2: the JDK's MD5 intrinsic exists only in C2, and C1 hashes at half the speed.
   */
  public static final String FULL_JIT = "fawn.jobs.md5.full-jit";
  public static final boolean DEFAULT_FULL_JIT = true;

  private Md5Config() {}

  /** The configured bits, validated to 1..32. */
  public static int bits(Configuration conf) {
    String raw = conf.getTrimmed(BITS, Integer.toString(DEFAULT_BITS));
    int bits;
    try {
      bits = Integer.parseInt(raw);
    } catch (NumberFormatException e) {
      throw new InvalidConfigException(BITS, BITS + " = '" + raw + "' is not a whole number");
    }
    checkBits(bits, BITS + " = " + raw);
    return bits;
  }

  static void checkBits(int bits, String what) {
    if (bits < 1 || bits > MAX_BITS) {
      throw new InvalidConfigException(BITS, what + " is out of range: bits must be between 1 and "
          + MAX_BITS + " (values are 4-byte records)");
    }
  }

  /** The configured maps, 0 meaning one per vcore; rejects what is not a whole number >= 0. */
  public static int explicitMaps(Configuration conf) {
    String raw = conf.getTrimmed(MAPS, Integer.toString(DEFAULT_MAPS));
    int maps;
    try {
      maps = Integer.parseInt(raw);
    } catch (NumberFormatException e) {
      throw new InvalidConfigException(MAPS, MAPS + " = '" + raw + "' is not a whole number");
    }
    if (maps < 0) {
      throw new InvalidConfigException(MAPS, MAPS + " = " + maps + " must be 0 (one per vcore)"
          + " or positive");
    }
    return maps;
  }

  /** Maps to use for {@code records} records: the setting, else the cluster's vcores. */
  public static int maps(Configuration conf, long records) throws IOException {
    int maps = explicitMaps(conf);
    if (maps == 0) {
      maps = ClusterVcores.forJob(conf);
    }
    return (int) Math.max(1, Math.min(maps, records));
  }

  /** The target hash as 16 bytes. */
  public static byte[] target(Configuration conf) {
    String hex = conf.getTrimmed(TARGET);
    if (hex == null) {
      throw new InvalidConfigException(TARGET, TARGET + " is not set (md5search sets it from"
          + " --target)");
    }
    return parseTarget(hex);
  }

  /**
   * 32 hex digits (either case) as the 16 bytes of an MD5 hash.
   *
   * @throws InvalidConfigException naming the value when it is not 32 hex digits
   */
  public static byte[] parseTarget(String hex) {
    if (hex.length() != 32) {
      throw new InvalidConfigException(TARGET, "target '" + hex + "' is not an MD5 hash: expected"
          + " 32 hex digits, got " + hex.length() + " characters");
    }
    try {
      return HexFormat.of().parseHex(hex);
    } catch (IllegalArgumentException e) {
      throw new InvalidConfigException(TARGET, "target '" + hex + "' is not an MD5 hash: expected"
          + " 32 hex digits (0-9, a-f)");
    }
  }
}

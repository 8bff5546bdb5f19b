package org.fawnpack.jobs.md5;

import java.io.IOException;
import java.util.HexFormat;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.fawnpack.conf.ConfigKey;
import org.fawnpack.conf.InvalidConfigValueException;
import org.fawnpack.input.ClusterVcores;

/**
 * The configuration keys of md5gen and md5search. The tools set them from their options
 * ({@code --bits}, {@code --maps}, {@code --target}, {@code --no-combiner}); they can also be
 * given with {@code -D}. Each is validated here, with the key and the value in the message.
 */
public final class Md5Config {

  /** Values are written as 4-byte records, so 32 bits is the most a record holds. */
  public static final int MAX_BITS = 32;

  public static final ConfigKey<Integer> BITS = ConfigKey.intKey("fawn.jobs.md5.bits", 24, 1,
      MAX_BITS, "md5gen: bits of the value space (`--bits`), 1..32.");

  public static final ConfigKey<Integer> MAPS = ConfigKey.intKey("fawn.jobs.md5.maps", 0, 0,
      100_000, "md5gen and md5search: maps / splits (`--maps`); 0 = one per vcore of"
      + " the cluster (running nodes' vcores less the ApplicationMaster's, or"
      + " `fawn.input.combine.vcores` when set).");

  public static final ConfigKey<String> TARGET = ConfigKey.stringKey("fawn.jobs.md5.target", null,
      "32 hex digits", Md5Config::isMd5Hex, "md5search: the MD5 looked for (`--target`), 32 hex"
      + " digits.");

  public static final ConfigKey<Boolean> COMBINE = ConfigKey.booleanKey("fawn.jobs.md5.combine",
      true, "md5search: filter in a combiner before the shuffle (`--no-combiner` sets false:"
      + " every pair is shuffled, as in the thesis).");

  /**
   * A cluster that starts task JVMs on the C1 compiler only (good for short tasks) would run the
   * MD5 loop on C1: the JDK's MD5 intrinsic exists only in C2, and C1 hashes at half the speed.
   */
  public static final ConfigKey<Boolean> FULL_JIT = ConfigKey.booleanKey("fawn.jobs.md5.full-jit",
      true, "md5search: append `-XX:TieredStopAtLevel=4` to `mapreduce.map.java.opts`, so a"
      + " cluster whose task JVMs run C1 only still hashes with C2's MD5 intrinsic (2.1×"
      + " faster here).");

  /** The keys above, in the order of the configuration reference. */
  public static final List<ConfigKey<?>> KEYS = List.of(BITS, MAPS, TARGET, COMBINE, FULL_JIT);

  private Md5Config() {}

  /** The configured bits, validated to 1..32. */
  public static int bits(Configuration conf) {
    return BITS.read(conf::get);
  }

  /** For the {@code --bits} option: the same range as {@link #BITS}, in the option's words. */
  static void checkBits(int bits, String what) {
    if (bits < 1 || bits > MAX_BITS) {
      throw new IllegalArgumentException(what + " is out of range: bits must be between 1 and "
          + MAX_BITS + " (values are 4-byte records)");
    }
  }

  /** The configured maps, 0 meaning one per vcore; rejects what is not a whole number >= 0. */
  public static int explicitMaps(Configuration conf) {
    return MAPS.read(conf::get);
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
    String hex = TARGET.read(conf::get);
    if (hex == null) {
      throw new InvalidConfigValueException(TARGET.name(), "(unset)",
          TARGET.allowed() + " (md5search sets it from --target)");
    }
    return HexFormat.of().parseHex(hex);
  }

  private static boolean isMd5Hex(String text) {
    return text.length() == 32 && text.chars().allMatch(c -> Character.digit(c, 16) >= 0);
  }

  /**
   * 32 hex digits (either case) as the 16 bytes of an MD5 hash.
   *
   * @throws IllegalArgumentException naming the value when it is not 32 hex digits
   */
  public static byte[] parseTarget(String hex) {
    if (hex.length() != 32) {
      throw new IllegalArgumentException("target '" + hex + "' is not an MD5 hash: expected"
          + " 32 hex digits, got " + hex.length() + " characters");
    }
    try {
      return HexFormat.of().parseHex(hex);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("target '" + hex + "' is not an MD5 hash: expected"
          + " 32 hex digits (0-9, a-f)");
    }
  }
}

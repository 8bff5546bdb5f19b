package org.fawnpack.conf;

import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * One {@code fawn.*} configuration key: its name, type, default, what values it allows and a
 * one-line doc. Modules declare their keys as public constants; reading a value
 * ({@link #read}, from a Hadoop {@code Configuration}, a map or anything that looks a name up)
 * and setting one in code ({@link #check}) go through the same rule, and every refusal is an
 * {@link InvalidConfigValueException} naming key, value and what is allowed. Booleans are
 * strict: only {@code true} and {@code false} (any case), so a typo is an error, not the
 * default.
 *
 * <pre>{@code
 * public static final ConfigKey<Long> INTERVAL_MS = ConfigKey.longKey(
 *     "fawn.kv.sync.interval-ms", 100, 1, 60_000, "Period of the interval policy, in ms.");
 * long ms = INTERVAL_MS.read(conf::get);
 * }</pre>
 *
 * @param <T> the value type
 */
public final class ConfigKey<T> {

  private final String name;
  private final T defaultValue;
  private final String allowed;
  private final String doc;
  private final Function<String, T> parser;
  private final Predicate<T> inRange;
  private final Function<T, String> spelling;

  private ConfigKey(String name, T defaultValue, String allowed, String doc,
      Function<String, T> parser, Predicate<T> inRange, Function<T, String> spelling) {
    if (!name.startsWith("fawn.") || name.split("\\.").length < 3) {
      throw new IllegalArgumentException("a key is named fawn.<module>.<thing>, not " + name);
    }
    this.name = name;
    this.allowed = Objects.requireNonNull(allowed, "allowed");
    this.doc = Objects.requireNonNull(doc, "doc");
    this.parser = parser;
    this.inRange = inRange;
    this.spelling = spelling;
    this.defaultValue = defaultValue;
    if (defaultValue != null) {
      check(defaultValue);
    }
  }

  /** A whole number in {@code [min, max]}. */
  public static ConfigKey<Long> longKey(String name, long defaultValue, long min, long max,
      String doc) {
    return new ConfigKey<>(name, defaultValue, min + ".." + max, doc,
        raw -> Long.parseLong(raw), v -> v >= min && v <= max, String::valueOf);
  }

  /** A whole number in {@code [min, max]}, or 0 for off. */
  public static ConfigKey<Long> longKeyOrOff(String name, long defaultValue, long min, long max,
      String doc) {
    return new ConfigKey<>(name, defaultValue, "0 (off) or " + min + ".." + max, doc,
        raw -> Long.parseLong(raw), v -> v == 0 || (v >= min && v <= max), String::valueOf);
  }

  /** A whole number in {@code [min, max]} that fits an int. */
  public static ConfigKey<Integer> intKey(String name, int defaultValue, int min, int max,
      String doc) {
    return new ConfigKey<>(name, defaultValue, min + ".." + max, doc,
        raw -> Integer.parseInt(raw), v -> v >= min && v <= max, String::valueOf);
  }

  /** A whole number in {@code [min, max]} that fits an int, or unset (reads as null). */
  public static ConfigKey<Integer> optionalIntKey(String name, int min, int max, String doc) {
    return new ConfigKey<>(name, null, min + ".." + max + " or unset", doc,
        raw -> Integer.parseInt(raw), v -> v >= min && v <= max,
        v -> v == null ? "(unset)" : v.toString());
  }

  /**
   * A byte size in {@code [min, max]}: a whole number, optionally followed by one of the binary
   * suffixes k, m, g, t, p, e (any case), as Hadoop's {@code getLongBytes} reads sizes.
   */
  public static ConfigKey<Long> bytesKey(String name, long defaultValue, long min, long max,
      String doc) {
    return new ConfigKey<>(name, defaultValue, "a byte size " + ByteSizes.spell(min) + ".."
        + ByteSizes.spell(max) + " (a number, optionally with k, m, g or t)", doc,
        ByteSizes::parse, v -> v >= min && v <= max, ByteSizes::spell);
  }

  /** A finite number in {@code [min, max]}, or unset (reads as null). */
  public static ConfigKey<Double> optionalDoubleKey(String name, double min, double max,
      String doc) {
    return new ConfigKey<>(name, null, "a number in " + min + ".." + max + " or unset", doc,
        raw -> Double.parseDouble(raw), v -> v >= min && v <= max,
        v -> v == null ? "(unset)" : v.toString());
  }

  /** A finite number in {@code [min, max]}. */
  public static ConfigKey<Double> doubleKey(String name, double defaultValue, double min,
      double max, String doc) {
    return new ConfigKey<>(name, defaultValue, "a number in " + min + ".." + max, doc,
        raw -> Double.parseDouble(raw), v -> v >= min && v <= max, String::valueOf);
  }

  /** {@code true} or {@code false}, nothing else. */
  public static ConfigKey<Boolean> booleanKey(String name, boolean defaultValue, String doc) {
    return new ConfigKey<>(name, defaultValue, "true or false", doc, ConfigKey::strictBoolean,
        v -> true, String::valueOf);
  }

  /**
   * Free text; {@code allowed} says in words what it may be (e.g. {@code "a host name"}) and
   * {@code valid} checks it. A null default means the key has no default (unset is allowed and
   * reads as null).
   */
  public static ConfigKey<String> stringKey(String name, String defaultValue, String allowed,
      Predicate<String> valid, String doc) {
    return new ConfigKey<>(name, defaultValue, allowed, doc, raw -> {
      if (!valid.test(raw)) {
        throw new IllegalArgumentException();
      }
      return raw;
    }, v -> v == null || valid.test(v), v -> v == null ? "(unset)" : v);
  }

  /** Any text that is not blank; see {@link #stringKey(String, String, String, Predicate, String)}. */
  public static ConfigKey<String> stringKey(String name, String defaultValue, String doc) {
    return stringKey(name, defaultValue, "any text that is not blank", v -> !v.isBlank(), doc);
  }

  /** One of an enum's constants, each written as {@code spelling} gives it. */
  public static <E extends Enum<E>> ConfigKey<E> choiceKey(String name, E defaultValue,
      Function<E, String> spelling, String doc) {
    E[] choices = defaultValue.getDeclaringClass().getEnumConstants();
    String allowed = "one of " + Arrays.stream(choices).map(spelling)
        .collect(Collectors.joining(", "));
    return new ConfigKey<>(name, defaultValue, allowed, doc, raw -> Arrays.stream(choices)
        .filter(c -> spelling.apply(c).equals(raw.toLowerCase(Locale.ROOT))).findFirst()
        .orElseThrow(IllegalArgumentException::new), v -> true, spelling);
  }

  private static Boolean strictBoolean(String raw) {
    switch (raw.toLowerCase(Locale.ROOT)) {
      case "true":
        return Boolean.TRUE;
      case "false":
        return Boolean.FALSE;
      default:
        throw new IllegalArgumentException();
    }
  }

  public String name() {
    return name;
  }

  public T defaultValue() {
    return defaultValue;
  }

  /** The default as it is written in a configuration file. */
  public String defaultText() {
    return spelling.apply(defaultValue);
  }

  /** What the key allows, e.g. {@code 1..60000}, {@code true or false}. */
  public String allowed() {
    return allowed;
  }

  public String doc() {
    return doc;
  }

  /**
   * The value {@code raw} stands for: the default when it is null (unset); surrounding blanks
   * are ignored.
   *
   * @throws InvalidConfigValueException when it is not one the key allows
   */
  public T parse(String raw) {
    if (raw == null) {
      return defaultValue;
    }
    T value;
    try {
      value = parser.apply(raw.trim());
    } catch (IllegalArgumentException e) {
      throw new InvalidConfigValueException(name, raw, allowed);
    }
    if (!inRange.test(value)) {
      throw new InvalidConfigValueException(name, raw, allowed);
    }
    return value;
  }

  /** The value found under this key's name by {@code lookup} (null when unset). */
  public T read(UnaryOperator<String> lookup) {
    return parse(lookup.apply(name));
  }

  /**
   * Returns {@code value} when the key allows it (a value set in code, e.g. through a builder).
   *
   * @throws InvalidConfigValueException when it does not
   */
  public T check(T value) {
    if (value == null || !inRange.test(value)) {
      throw new InvalidConfigValueException(name, value, allowed);
    }
    return value;
  }

  /** This key's row of a configuration reference table (see {@link ConfigReference}). */
  public String referenceRow() {
    return "| `" + name + "` | `" + defaultText() + "` | " + doc + " |";
  }

  @Override
  public String toString() {
    return name + " (default " + defaultText() + ", " + allowed + ")";
  }
}

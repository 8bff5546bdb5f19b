package org.fawnpack.kv.slice;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A slice map as text, the same in its znode ({@code zkCli.sh get .../slices} shows it) and in
 * a front-end's SLICES and WRONG_SLICE answers:
 * <pre>
 * fawn-kv-slices 1
 * epoch 7
 * seed 5f0e...
 * frontend f0 10.0.0.1 7400
 * frontend f1 10.0.0.1 7401
 * previous f0            (only in a handover)
 * </pre>
 */
public final class SliceCodec {
  static final String FORMAT = "fawn-kv-slices 1";

  private SliceCodec() {}

  public static byte[] encode(SliceMap map) {
    StringBuilder text = new StringBuilder(FORMAT).append('\n');
    text.append("epoch ").append(map.epoch()).append('\n');
    text.append("seed ").append(Long.toHexString(map.seed())).append('\n');
    for (SliceMap.Endpoint e : map.owners()) {
      text.append("frontend ").append(e.name()).append(' ').append(e.host()).append(' ')
          .append(e.port()).append('\n');
    }
    if (!map.settled()) {
      text.append("previous ").append(String.join(" ", map.previous())).append('\n');
    }
    return text.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** Reads a map; {@code where} names its source in the error of a malformed one. */
  public static SliceMap decode(byte[] bytes, String where) {
    String[] lines = new String(bytes, StandardCharsets.UTF_8).split("\n");
    if (lines.length < 3 || !lines[0].equals(FORMAT)) {
      throw new IllegalArgumentException(where + ": not a slice map (first line must be '"
          + FORMAT + "')");
    }
    Long epoch = null;
    Long seed = null;
    List<SliceMap.Endpoint> owners = new ArrayList<>();
    List<String> previous = List.of();
    for (int i = 1; i < lines.length; i++) {
      String[] words = lines[i].trim().split(" +");
      String at = where + " line " + (i + 1);
      try {
        switch (words[0]) {
          case "epoch" -> epoch = Long.parseLong(only(words, 2, at)[1]);
          case "seed" -> seed = Long.parseUnsignedLong(only(words, 2, at)[1], 16);
          case "frontend" -> {
            String[] w = only(words, 4, at);
            owners.add(new SliceMap.Endpoint(w[1], w[2], Integer.parseInt(w[3])));
          }
          case "previous" -> previous = Arrays.asList(words).subList(1, words.length);
          default -> throw new IllegalArgumentException(at + ": unknown line '" + lines[i]
              + "'");
        }
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(at + ": not a number in '" + lines[i] + "'", e);
      }
    }
    if (epoch == null || seed == null) {
      throw new IllegalArgumentException(where + ": a slice map needs an epoch and a seed line");
    }
    try {
      return new SliceMap(epoch, seed, owners, previous);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
    }
  }

  private static String[] only(String[] words, int count, String at) {
    if (words.length != count) {
      throw new IllegalArgumentException(at + ": '" + words[0] + "' takes " + (count - 1)
          + " value(s), has " + (words.length - 1));
    }
    return words;
  }
}

package org.fawnpack.kv.zookeeper;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.ring.Orphans;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.ring.RingHash;

/**
 * A ring epoch as the text stored in ZooKeeper: a format line, then one "name value" line per
 * setting and one line per member. Text, so that an operator can read it with {@code zkCli.sh
 * get}; the ring key is kept apart (its own znode), so this text holds no secret.
 *
 * <pre>
 * fawn-kv-ring 1
 * epoch 3
 * vnodes 4
 * replicas 3
 * member b0 10.0.0.11 7070
 * member b1 10.0.0.12 7070
 * member b2 10.0.1.13 7070 box2
 * down b1
 * pending b3 0f3a9c00e1d2b4a7 81c0ffee00000000
 * joining b9 10.0.0.19 7070
 * leaving b0
 * removing b7
 * orphaned 5a00000000000000 b1,b4,b2
 * recovering 81c0ffee00000000 b4
 * lost 9f00000000000000
 * </pre>
 *
 * <p>A {@code member} line's fifth word is the back-end's failure domain, when it has one other
 * than its host. A {@code pending} line names a back-end and the ends (hex) of the arcs it is copying; a
 * {@code joining} line a back-end about to join (its frozen arcs follow from the rest); a
 * {@code leaving} line a member handing its arcs over before it leaves; a {@code removing} line a
 * down member about to be removed for good (the arcs it bounds are frozen); an {@code orphaned}
 * line an arc every serving member of which is down, with its last chain that served, head
 * first; a {@code recovering} line an arc served from one member's own file while its walk
 * copies it; a {@code lost} line an arc an operator declared gone (see {@code ring.Orphans}).
 */
public final class RingCodec {
  static final String FORMAT = "fawn-kv-ring 1";

  private RingCodec() {}

  public static byte[] encode(Ring ring) {
    StringBuilder text = new StringBuilder(FORMAT).append('\n')
        .append("epoch ").append(ring.epoch()).append('\n')
        .append("vnodes ").append(ring.vnodesPerMember()).append('\n')
        .append("replicas ").append(ring.replicas()).append('\n');
    ring.members().stream().sorted(java.util.Comparator.comparing(Member::id)).forEach(m ->
        text.append("member ").append(memberWords(m)).append('\n'));
    ring.down().stream().sorted().forEach(id -> text.append("down ").append(id).append('\n'));
    ring.pending().forEach((id, arcs) -> {
      text.append("pending ").append(id);
      arcs.stream().sorted(Long::compareUnsigned).forEach(end ->
          text.append(' ').append(String.format("%016x", end)));
      text.append('\n');
    });
    ring.joining().stream().sorted(java.util.Comparator.comparing(Member::id)).forEach(m ->
        text.append("joining ").append(memberWords(m)).append('\n'));
    ring.leaving().stream().sorted().forEach(id -> text.append("leaving ").append(id)
        .append('\n'));
    ring.removing().stream().sorted().forEach(id -> text.append("removing ").append(id)
        .append('\n'));
    ring.orphans().lastChains().forEach((end, ids) -> text.append("orphaned ")
        .append(String.format("%016x", end)).append(' ').append(String.join(",", ids))
        .append('\n'));
    ring.orphans().sources().forEach((end, id) -> text.append("recovering ")
        .append(String.format("%016x", end)).append(' ').append(id).append('\n'));
    ring.orphans().lost().forEach(end -> text.append("lost ")
        .append(String.format("%016x", end)).append('\n'));
    return text.toString().getBytes(StandardCharsets.UTF_8);
  }

  /**
   * The ring {@code bytes} describe, positioned by {@code hash}.
   *
   * @throws IllegalArgumentException naming {@code where}, the line and what is wrong
   */
  public static Ring decode(byte[] bytes, RingHash hash, String where) {
    String[] lines = new String(bytes, StandardCharsets.UTF_8).split("\n");
    if (!lines[0].equals(FORMAT)) {
      throw new IllegalArgumentException(where + ": line 1 is '" + lines[0] + "', expected '"
          + FORMAT + "'");
    }
    long epoch = -1;
    int vnodes = -1;
    int replicas = -1;
    List<Member> members = new ArrayList<>();
    List<String> down = new ArrayList<>();
    Map<String, Set<Long>> pending = new TreeMap<>();
    List<Member> joining = new ArrayList<>();
    List<String> leaving = new ArrayList<>();
    List<String> removing = new ArrayList<>();
    Map<Long, List<String>> orphaned = new TreeMap<>();
    Map<Long, String> recovering = new TreeMap<>();
    Set<Long> lost = new HashSet<>();
    for (int i = 1; i < lines.length; i++) {
      String[] words = lines[i].split(" ");
      String at = where + ": line " + (i + 1) + " '" + lines[i] + "'";
      try {
        switch (words[0]) {
          case "epoch" -> epoch = Long.parseLong(only(words, 2, at)[1]);
          case "vnodes" -> vnodes = Integer.parseInt(only(words, 2, at)[1]);
          case "replicas" -> replicas = Integer.parseInt(only(words, 2, at)[1]);
          case "member" -> {
            between(words, 4, 5, at);
            members.add(member(words, at));
          }
          case "down" -> down.add(only(words, 2, at)[1]);
          case "joining" -> {
            between(words, 4, 5, at);
            joining.add(member(words, at));
          }
          case "leaving" -> leaving.add(only(words, 2, at)[1]);
          case "removing" -> removing.add(only(words, 2, at)[1]);
          case "pending" -> pending.put(atLeast(words, 3, at)[1], arcEnds(words, at));
          case "orphaned" -> orphaned.put(arcEnd(only(words, 3, at)[1], at),
              List.of(words[2].split(",")));
          case "recovering" -> recovering.put(arcEnd(only(words, 3, at)[1], at), words[2]);
          case "lost" -> lost.add(arcEnd(only(words, 2, at)[1], at));
          default -> throw new IllegalArgumentException(at + ": unknown setting");
        }
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(at + ": not a number", e);
      }
    }
    if (epoch < 0 || vnodes < 0 || replicas < 0) {
      throw new IllegalArgumentException(where + ": epoch, vnodes and replicas are all needed");
    }
    try {
      return Ring.at(epoch, hash, vnodes, replicas, members, down, pending, joining, leaving,
          removing, new Orphans(orphaned, recovering, lost));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
    }
  }

  private static Member member(String[] words, String at) {
    int port = Integer.parseInt(words[3]); // a NumberFormatException is reported by the caller
    try {
      return new Member(words[1], words[2], port, words.length > 4 ? words[4] : null);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(at + ": " + e.getMessage(), e);
    }
  }

  private static Set<Long> arcEnds(String[] words, String at) {
    Set<Long> ends = new HashSet<>();
    for (int i = 2; i < words.length; i++) {
      ends.add(arcEnd(words[i], at));
    }
    return ends;
  }

  private static long arcEnd(String word, String at) {
    if (!word.matches("[0-9a-f]{16}")) {
      throw new IllegalArgumentException(at + ": '" + word + "' is not an arc end (16 hex"
          + " digits)");
    }
    return Long.parseUnsignedLong(word, 16);
  }

  /**
   * "id host port", then the failure domain when it is not the host's own (so a ring without
   * domains reads as it always has).
   */
  private static String memberWords(Member m) {
    return m.id() + " " + m.host() + " " + m.port() + (m.hasOwnDomain() ? " " + m.domain() : "");
  }

  private static String[] between(String[] words, int min, int max, String at) {
    if (words.length < min || words.length > max) {
      throw new IllegalArgumentException(at + ": expected " + min + " to " + max + " words");
    }
    return words;
  }

  private static String[] atLeast(String[] words, int count, String at) {
    if (words.length < count) {
      throw new IllegalArgumentException(at + ": expected at least " + count + " words");
    }
    return words;
  }

  private static String[] only(String[] words, int count, String at) {
    if (words.length != count) {
      throw new IllegalArgumentException(at + ": expected " + count + " words");
    }
    return words;
  }
}

package org.fawnpack.kv.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** {@link Verb}'s table against the wire ids {@link MessageType} declares, read by reflection. */
class VerbTest {

  /** Every {@code public static final byte} of MessageType: a verb's name and its wire id. */
  private static Map<String, Byte> declaredIds() throws IllegalAccessException {
    Map<String, Byte> ids = new TreeMap<>();
    for (Field f : MessageType.class.getDeclaredFields()) {
      int m = f.getModifiers();
      if (Modifier.isPublic(m) && Modifier.isStatic(m) && Modifier.isFinal(m)
          && f.getType() == byte.class) {
        ids.put(f.getName(), f.getByte(null));
      }
    }
    return ids;
  }

  @Test
  void oneRowPerDeclaredId_sameNameAndId() throws Exception {
    Map<String, Byte> fromRows = new TreeMap<>();
    for (Verb v : Verb.values()) {
      fromRows.put(v.name(), v.id());
    }
    assertEquals(declaredIds(), fromRows);
  }

  @Test
  void of_findsEveryRowByItsId_andNothingElse() throws Exception {
    Map<Byte, String> byId = declaredIds().entrySet().stream()
        .collect(Collectors.toMap(Map.Entry::getValue, Map.Entry::getKey));
    for (int i = 0; i < 256; i++) {
      String name = byId.get((byte) i);
      if (name == null) {
        assertNull(Verb.of((byte) i), "id " + i);
        assertEquals("type " + i, MessageType.name((byte) i));
      } else {
        assertEquals(name, Verb.of((byte) i).name());
        assertEquals(name, MessageType.name((byte) i));
      }
    }
  }

  @Test
  void requestsAreBelow64_repliesFrom64() {
    for (Verb v : Verb.values()) {
      assertEquals(v.id() < 64 ? Verb.Kind.REQUEST : Verb.Kind.REPLY, v.kind(), v.name());
    }
  }

  @Test
  void ringEpochChecked_isTheRoutedRequestsAndTheCopiersQuestions() {
    // As the back-end's dispatch listed them before the table: requests routed by a ring, and
    // ARC_SNAPSHOT and ARC_LAST (a source still splitting for a join must not answer them).
    assertEquals(Set.of("GET", "DIRECT_GET", "PUT", "DELETE", "SCAN", "FENCE", "ARC_SNAPSHOT",
        "ARC_LAST"), names(Stream.of(Verb.values()).filter(Verb::ringEpochChecked)));
  }

  @Test
  void answeredBy_frontEndsAndBackEnds_requestsOnly() {
    assertEquals(Set.of("GET", "PUT", "DELETE", "STATS", "SLICES", "BULK_GATE"),
        names(Verb.requestsOf(Verb.Node.FRONTEND).stream()));
    assertEquals(names(Stream.of(Verb.values())
            .filter(v -> v.kind() == Verb.Kind.REQUEST && v != Verb.SLICES)),
        names(Verb.requestsOf(Verb.Node.BACKEND).stream()));
    for (Verb v : Verb.values()) {
      if (v.kind() == Verb.Kind.REPLY) {
        assertEquals(false, v.isAnsweredBy(Verb.Node.BACKEND) || v.isAnsweredBy(
            Verb.Node.FRONTEND), v.name());
      }
    }
  }

  private static Set<String> names(Stream<Verb> verbs) {
    return verbs.map(Verb::name).collect(Collectors.toSet());
  }

  @Test
  void waitClass_asEachCallerWaitedBeforeTheTable() {
    // Written out from the callers' own constants before the column existed: a client's try
    // (3 s), a node's or command's wait for an answer (10 s: STATS, FENCE's round trip), a
    // copy's or scan's transfer (60 s: ARC_SNAPSHOT, ARC_CHUNK; bulk steps had the load's
    // deadline), ARC_LAST's and FENCE's hold plus an answer, chain messages resent untimed.
    Map<Verb.Wait, Set<String>> expected = Map.of(
        Verb.Wait.CLIENT_TRY, Set.of("GET", "PUT", "DELETE", "DIRECT_GET"),
        Verb.Wait.ANSWER, Set.of("STATS", "SLICES", "ARC_RELEASE", "BULK_GATE", "BULK_RELEASE"),
        Verb.Wait.TRANSFER, Set.of("ARC_SNAPSHOT", "ARC_CHUNK", "SCAN", "BULK_STAGE",
            "BULK_APPLY"),
        Verb.Wait.LONG_POLL, Set.of("ARC_LAST", "FENCE"),
        Verb.Wait.RESENT, Set.of("CHAIN_PUT", "CHAIN_DELETE", "CHAIN_SYNC", "CHAIN_ATTACH"));
    for (Map.Entry<Verb.Wait, Set<String>> e : expected.entrySet()) {
      assertEquals(e.getValue(), names(Stream.of(Verb.values())
          .filter(v -> v.waitClass() == e.getKey())), e.getKey().name());
    }
    for (Verb v : Verb.values()) {
      assertEquals(v.kind() == Verb.Kind.REPLY, v.waitClass() == Verb.Wait.NONE, v.name());
    }
  }

  @Test
  void timeouts_giveEachClassItsDuration_andRefuseTheUntimed() {
    java.time.Duration s = java.time.Duration.ofSeconds(1);
    Timeouts t = new Timeouts(s, s.multipliedBy(2), s.multipliedBy(3));
    assertEquals(s, t.of(Verb.DIRECT_GET));
    assertEquals(s.multipliedBy(2), t.of(Verb.STATS));
    assertEquals(s.multipliedBy(3), t.of(Verb.ARC_CHUNK));
    assertEquals(java.time.Duration.ofMillis(2_500), t.longPoll(500));
    assertEquals(java.time.Duration.ofMillis(700), t.within(Verb.SCAN,
        java.time.Duration.ofMillis(700)), "a deadline shorter than the class's wins");
    assertEquals(s.multipliedBy(3), t.within(Verb.SCAN, java.time.Duration.ofHours(1)));
    for (Verb untimed : new Verb[] {Verb.CHAIN_PUT, Verb.ARC_LAST, Verb.OK}) {
      org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
          () -> t.of(untimed), untimed.name());
    }
    org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> new Timeouts(s, java.time.Duration.ZERO, s));
  }
}

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
}

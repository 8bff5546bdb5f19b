package org.fawnpack.energy.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {

  @Test
  void parsesEveryKindOfValue() throws IOException {
    Object doc = Json.parse(" {\"a\": [1, -2.5, 3e2, true, false, null, \"x\\\"y\\u00e9\\n\"],"
        + " \"b\": {}, \"c\": [], \"big\": 12345678901234567890} ");
    assertTrue(doc instanceof Map<?, ?>);
    List<Object> a = Json.list(doc, "a");
    assertEquals(List.of(1L, -2.5, 300.0, true, false), a.subList(0, 5));
    assertNull(a.get(5));
    assertEquals("x\"yé\n", a.get(6));
    assertEquals(Map.of(), Json.member(doc, "b"));
    assertEquals(List.of(), Json.list(doc, "c"));
    assertEquals(1.2345678901234567e19, (Double) Json.member(doc, "big"), 1e4);
  }

  @Test
  void rejectsMalformedDocuments() {
    for (String bad : new String[] {"", "{", "{\"a\":}", "[1,]", "{\"a\" 1}", "[1] x", "tru",
        "\"unterminated", "{\"a\":01.}", "[-]", "\"bad \\q escape\"", "{a:1}"}) {
      IOException e = assertThrows(IOException.class, () -> Json.parse(bad), bad);
      assertTrue(e.getMessage().startsWith("malformed JSON at character "), e.getMessage());
    }
  }

  @Test
  void readsJettisonShapesAsLists() throws IOException {
    // Hadoop 3.5.0's JobHistory server (Jersey 2 + Jettison mapped notation): a one-element
    // list is the bare element, an empty list is "".
    Object one = Json.parse("{\"task\":{\"id\":\"t1\"}}");
    Object none = Json.parse("{\"task\":\"\"}");
    Object many = Json.parse("{\"task\":[{\"id\":\"t1\"},{\"id\":\"t2\"}]}");
    assertEquals(1, Json.list(one, "task").size());
    assertEquals("t1", Json.text(Json.list(one, "task").get(0), "id"));
    assertEquals(0, Json.list(none, "task").size());
    assertEquals(0, Json.list(none, "missing").size());
    assertEquals(2, Json.list(many, "task").size());
  }

  @Test
  void readsScalarsJettisonRetyped() throws IOException {
    // Jettison turns a job named "4711" into 4711 and a user "true" into true.
    Object job = Json.parse("{\"name\":4711,\"user\":true,\"n\":\"42\",\"d\":2.0,\"s\":\"x\"}");
    assertEquals("4711", Json.text(job, "name"));
    assertEquals("true", Json.text(job, "user"));
    assertEquals(42, Json.number(job, "n", -1));
    assertEquals(2, Json.number(job, "d", -1));
    assertEquals(-1, Json.number(job, "s", -1));
    assertEquals(-1, Json.number(job, "absent", -1));
    assertNull(Json.text(job, "absent"));
  }
}

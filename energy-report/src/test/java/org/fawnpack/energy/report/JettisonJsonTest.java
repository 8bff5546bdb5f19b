package org.fawnpack.energy.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** What the report reads of the JobHistory server's JSON (Jackson does the parsing). */
class JettisonJsonTest {

  @Test
  void parse_malformedDocuments_refusedAsMalformedJson() {
    for (String bad : new String[] {"", "{", "{\"a\":}", "[1,]", "{\"a\" 1}", "tru",
        "\"unterminated", "[-]", "\"bad \\q escape\"", "{a:1}"}) {
      IOException e = assertThrows(IOException.class, () -> JettisonJson.parse(bad), bad);
      assertTrue(e.getMessage().startsWith("malformed JSON"), e.getMessage());
    }
  }

  @Test
  void list_jettisonShapes_readAsLists() throws IOException {
    // Hadoop 3.5.0's JobHistory server (Jersey 2 + Jettison mapped notation): a one-element
    // list is the bare element, an empty list is "".
    JsonNode one = JettisonJson.parse("{\"task\":{\"id\":\"t1\"}}");
    JsonNode none = JettisonJson.parse("{\"task\":\"\"}");
    JsonNode many = JettisonJson.parse("{\"task\":[{\"id\":\"t1\"},{\"id\":\"t2\"}]}");
    assertEquals(1, JettisonJson.list(one, "task").size());
    assertEquals("t1", JettisonJson.text(JettisonJson.list(one, "task").get(0), "id"));
    assertEquals(0, JettisonJson.list(none, "task").size());
    assertEquals(0, JettisonJson.list(none, "missing").size());
    assertEquals(2, JettisonJson.list(many, "task").size());
  }

  @Test
  void textAndNumber_scalarsJettisonRetyped_readAsWritten() throws IOException {
    // Jettison turns a job named "4711" into 4711 and a user "true" into true.
    JsonNode job = JettisonJson.parse(
        "{\"name\":4711,\"user\":true,\"n\":\"42\",\"d\":2.0,\"s\":\"x\",\"o\":{}}");
    assertEquals("4711", JettisonJson.text(job, "name"));
    assertEquals("true", JettisonJson.text(job, "user"));
    assertEquals("2", JettisonJson.text(job, "d"));
    assertEquals(42, JettisonJson.number(job, "n", -1));
    assertEquals(2, JettisonJson.number(job, "d", -1));
    assertEquals(-1, JettisonJson.number(job, "s", -1));
    assertEquals(-1, JettisonJson.number(job, "absent", -1));
    assertNull(JettisonJson.text(job, "absent"));
    assertNull(JettisonJson.text(job, "o"));
  }
}

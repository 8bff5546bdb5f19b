package org.fawnpack.energy.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the JSON of Hadoop 3.5.0's JobHistory server (Jersey 2 with Jettison's mapped
 * notation) with Jackson, undoing what Jettison does to it: a list of one element arrives as
 * the element itself, an empty list as {@code ""}, and a string that looks like a number or a
 * boolean arrives as one.
 */
final class JettisonJson {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private JettisonJson() {}

  /**
   * Parses a whole document.
   *
   * @throws IOException "malformed JSON ..." with Jackson's position when it is not JSON
   */
  static JsonNode parse(String text) throws IOException {
    try {
      JsonNode node = MAPPER.readTree(text);
      if (node == null || node.isMissingNode()) {
        throw new IOException("malformed JSON: empty document");
      }
      return node;
    } catch (JsonProcessingException e) {
      throw new IOException("malformed JSON: " + e.getOriginalMessage() + " ("
          + e.getLocation().offsetDescription() + ")", e);
    }
  }

  /** The member of an object, or null when {@code node} is not an object or lacks it. */
  static JsonNode member(JsonNode node, String name) {
    return node != null && node.isObject() ? node.get(name) : null;
  }

  /**
   * A list member however Jettison wrote it: a JSON array; one element on its own; an empty
   * string or nothing for no elements.
   */
  static List<JsonNode> list(JsonNode node, String name) {
    JsonNode value = member(node, name);
    List<JsonNode> elements = new ArrayList<>();
    if (value == null || value.isNull() || (value.isTextual() && value.asText().isEmpty())) {
      return elements;
    }
    if (value.isArray()) {
      value.forEach(elements::add);
    } else {
      elements.add(value);
    }
    return elements;
  }

  /** A scalar member as text (Jettison turns "123" into 123 and "true" into true); null if absent. */
  static String text(JsonNode node, String name) {
    JsonNode value = member(node, name);
    if (value == null || value.isNull() || value.isContainerNode()) {
      return null;
    }
    if (value.isFloatingPointNumber() && value.asDouble() == Math.rint(value.asDouble())
        && Math.abs(value.asDouble()) < 1e15) {
      return Long.toString(value.asLong());
    }
    return value.asText();
  }

  /** A numeric member (a number, or a string holding one); {@code fallback} if absent or not one. */
  static long number(JsonNode node, String name, long fallback) {
    JsonNode value = member(node, name);
    if (value == null) {
      return fallback;
    }
    if (value.isNumber()) {
      return value.isIntegralNumber() ? value.asLong() : Math.round(value.asDouble());
    }
    if (value.isTextual()) {
      String s = value.asText().trim();
      try {
        return Long.parseLong(s);
      } catch (NumberFormatException e) {
        try {
          return Math.round(Double.parseDouble(s));
        } catch (NumberFormatException e2) {
          return fallback;
        }
      }
    }
    return fallback;
  }
}

package org.fawnpack.energy.report;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small strict JSON reader (RFC 8259) to maps, lists, strings, numbers, booleans and null.
 * The module cannot use Jackson: hadoop-client puts jackson-databind 2.18 next to avro's
 * jackson-core 2.14 on the compile and test class path, and that pair does not load.
 *
 * <p>Also the helpers that undo what Hadoop 3.5.0's JobHistory server does to its JSON (Jersey 2
 * with Jettison's mapped notation): a list of one element arrives as the element itself, an
 * empty list as {@code ""}, and a string that looks like a number or a boolean arrives as one.
 */
final class Json {
  private final String text;
  private int pos;

  private Json(String text) {
    this.text = text;
  }

  /** Parses a whole document; trailing non-space text is an error. */
  static Object parse(String text) throws IOException {
    Json json = new Json(text);
    json.skipSpace();
    Object value = json.value(0);
    json.skipSpace();
    if (json.pos != text.length()) {
      throw json.error("unexpected text after the document");
    }
    return value;
  }

  private Object value(int depth) throws IOException {
    if (depth > 200) {
      throw error("nested too deeply");
    }
    if (pos >= text.length()) {
      throw error("unexpected end");
    }
    char c = text.charAt(pos);
    switch (c) {
      case '{':
        return object(depth);
      case '[':
        return array(depth);
      case '"':
        return string();
      case 't':
        literal("true");
        return Boolean.TRUE;
      case 'f':
        literal("false");
        return Boolean.FALSE;
      case 'n':
        literal("null");
        return null;
      default:
        if (c == '-' || (c >= '0' && c <= '9')) {
          return number();
        }
        throw error("unexpected character '" + c + "'");
    }
  }

  private Map<String, Object> object(int depth) throws IOException {
    Map<String, Object> map = new LinkedHashMap<>();
    pos++; // {
    skipSpace();
    if (peek() == '}') {
      pos++;
      return map;
    }
    while (true) {
      skipSpace();
      if (peek() != '"') {
        throw error("expected a member name");
      }
      String key = string();
      skipSpace();
      expect(':');
      skipSpace();
      map.put(key, value(depth + 1));
      skipSpace();
      char c = next();
      if (c == '}') {
        return map;
      }
      if (c != ',') {
        throw error("expected ',' or '}'");
      }
    }
  }

  private List<Object> array(int depth) throws IOException {
    List<Object> list = new ArrayList<>();
    pos++; // [
    skipSpace();
    if (peek() == ']') {
      pos++;
      return list;
    }
    while (true) {
      skipSpace();
      list.add(value(depth + 1));
      skipSpace();
      char c = next();
      if (c == ']') {
        return list;
      }
      if (c != ',') {
        throw error("expected ',' or ']'");
      }
    }
  }

  private String string() throws IOException {
    pos++; // opening quote
    StringBuilder out = new StringBuilder();
    while (true) {
      if (pos >= text.length()) {
        throw error("unterminated string");
      }
      char c = text.charAt(pos++);
      if (c == '"') {
        return out.toString();
      }
      if (c < 0x20) {
        throw error("control character in a string");
      }
      if (c != '\\') {
        out.append(c);
        continue;
      }
      char e = next();
      switch (e) {
        case '"', '\\', '/' -> out.append(e);
        case 'b' -> out.append('\b');
        case 'f' -> out.append('\f');
        case 'n' -> out.append('\n');
        case 'r' -> out.append('\r');
        case 't' -> out.append('\t');
        case 'u' -> {
          if (pos + 4 > text.length()) {
            throw error("short \\u escape");
          }
          try {
            out.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
          } catch (NumberFormatException ex) {
            throw error("bad \\u escape");
          }
          pos += 4;
        }
        default -> throw error("bad escape '\\" + e + "'");
      }
    }
  }

  private Number number() throws IOException {
    int start = pos;
    if (peek() == '-') {
      pos++;
    }
    boolean integral = true;
    while (pos < text.length()) {
      char c = text.charAt(pos);
      if (c >= '0' && c <= '9') {
        pos++;
      } else if (c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
        integral = false;
        pos++;
      } else {
        break;
      }
    }
    String token = text.substring(start, pos);
    try {
      if (integral) {
        try {
          return Long.parseLong(token);
        } catch (NumberFormatException tooLong) {
          return Double.parseDouble(token);
        }
      }
      if (token.endsWith(".") || token.startsWith(".") || token.startsWith("-.")) {
        throw new NumberFormatException(token);
      }
      return Double.parseDouble(token);
    } catch (NumberFormatException e) {
      pos = start;
      throw error("bad number '" + token + "'");
    }
  }

  private void literal(String word) throws IOException {
    if (!text.startsWith(word, pos)) {
      throw error("unexpected token");
    }
    pos += word.length();
  }

  private void expect(char c) throws IOException {
    if (next() != c) {
      pos--;
      throw error("expected '" + c + "'");
    }
  }

  private char peek() throws IOException {
    if (pos >= text.length()) {
      throw error("unexpected end");
    }
    return text.charAt(pos);
  }

  private char next() throws IOException {
    char c = peek();
    pos++;
    return c;
  }

  private void skipSpace() {
    while (pos < text.length()) {
      char c = text.charAt(pos);
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        return;
      }
      pos++;
    }
  }

  private IOException error(String what) {
    return new IOException("malformed JSON at character " + pos + ": " + what);
  }

  // ---- helpers for Jettison-shaped documents ----

  /** The member of an object, or null when {@code node} is not an object or lacks it. */
  static Object member(Object node, String name) {
    return node instanceof Map<?, ?> map ? map.get(name) : null;
  }

  /** The object member, or null. */
  @SuppressWarnings("unchecked")
  static Map<String, Object> object(Object node, String name) {
    Object value = member(node, name);
    return value instanceof Map<?, ?> ? (Map<String, Object>) value : null;
  }

  /**
   * A list member however Jettison wrote it: a JSON array; one element on its own; an empty
   * string or nothing for no elements.
   */
  static List<Object> list(Object node, String name) {
    Object value = member(node, name);
    if (value == null || "".equals(value)) {
      return Collections.emptyList();
    }
    if (value instanceof List<?> list) {
      return Collections.unmodifiableList(list);
    }
    return List.of(value);
  }

  /** A scalar member as text (Jettison turns "123" into 123 and "true" into true); null if absent. */
  static String text(Object node, String name) {
    Object value = member(node, name);
    if (value == null || value instanceof Map<?, ?> || value instanceof List<?>) {
      return null;
    }
    if (value instanceof Double d && d == Math.rint(d) && !Double.isInfinite(d)
        && Math.abs(d) < 1e15) {
      return Long.toString(d.longValue());
    }
    return value.toString();
  }

  /** A numeric member (a number, or a string holding one); {@code fallback} if absent or not one. */
  static long number(Object node, String name, long fallback) {
    Object value = member(node, name);
    if (value instanceof Number n) {
      return n instanceof Double d ? Math.round(d) : n.longValue();
    }
    if (value instanceof String s) {
      try {
        return Long.parseLong(s.trim());
      } catch (NumberFormatException e) {
        try {
          return Math.round(Double.parseDouble(s.trim()));
        } catch (NumberFormatException e2) {
          return fallback;
        }
      }
    }
    return fallback;
  }
}

package org.fawnpack.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The marker-delimited sections of a markdown report. A driver owns the text from its
 * {@code BEGIN} marker to its {@code END} marker (both included) and rewrites only that; the rest
 * of the file (other drivers' sections, hand-written notes) is left exactly as it was.
 */
final class ReportSections {

  private ReportSections() {}

  /** The text strictly between the markers, or empty when the file has no such section. */
  static Optional<String> between(String text, String begin, String end) {
    int from = text.indexOf(begin);
    if (from < 0) {
      return Optional.empty();
    }
    int to = text.indexOf(end, from + begin.length());
    return to < 0 ? Optional.empty() : Optional.of(text.substring(from + begin.length(), to));
  }

  /**
   * Replaces the section from {@code begin} to {@code end} (with the line break after it) by
   * {@code section}, which should start with {@code begin} and end with {@code end} and a line
   * break; appends it, after a blank line, when there is no complete section yet.
   */
  static String replace(String text, String begin, String end, String section) {
    int from = text.indexOf(begin);
    int to = from < 0 ? -1 : text.indexOf(end, from + begin.length());
    if (from >= 0 && to >= 0) {
      int after = to + end.length();
      if (after < text.length() && text.charAt(after) == '\n') {
        after++;
      }
      return text.substring(0, from) + section + text.substring(after);
    }
    if (text.isEmpty() || text.endsWith("\n\n")) {
      return text + section;
    }
    return text + (text.endsWith("\n") ? "\n" : "\n\n") + section;
  }

  /** The report file's text, or a bare title when it does not exist yet. */
  static String read(Path file) throws IOException {
    return Files.exists(file) ? Files.readString(file) : "# Benchmarks\n\n";
  }

  /** Rewrites one section of the file in place. */
  static void write(Path file, String begin, String end, String section) throws IOException {
    String text = replace(read(file), begin, end, section);
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    Files.writeString(file, text);
  }
}

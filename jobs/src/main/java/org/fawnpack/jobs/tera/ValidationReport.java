package org.fawnpack.jobs.tera;

import java.util.ArrayList;
import java.util.List;

/**
 * teravalidate's result, written by its reducer as text lines and read back by the tool:
 * <pre>
 * files      8
 * records    100000
 * checksum   30d4cbe6e5fb8           (sum of the records' CRC32s, hex)
 * misordered 0
 * misorder   &lt;file&gt; offset &lt;n&gt;: ...   (the first few, when any)
 * </pre>
 */
public record ValidationReport(long files, long records, Checksum128 checksum, long misordered,
    List<String> examples) {

  public List<String> lines() {
    List<String> lines = new ArrayList<>();
    lines.add("files\t" + files);
    lines.add("records\t" + records);
    lines.add("checksum\t" + checksum);
    lines.add("misordered\t" + misordered);
    for (String example : examples) {
      lines.add("misorder\t" + example);
    }
    return lines;
  }

  /** Parses {@link #lines()}; a missing line is an error naming it. */
  public static ValidationReport parse(List<String> lines) {
    Long files = null;
    Long records = null;
    Checksum128 checksum = null;
    Long misordered = null;
    List<String> examples = new ArrayList<>();
    for (String line : lines) {
      int tab = line.indexOf('\t');
      if (tab < 0) {
        throw new IllegalArgumentException("not a report line: '" + line + "'");
      }
      String name = line.substring(0, tab);
      String value = line.substring(tab + 1);
      switch (name) {
        case "files" -> files = Long.parseLong(value);
        case "records" -> records = Long.parseLong(value);
        case "checksum" -> checksum = Checksum128.parse(value);
        case "misordered" -> misordered = Long.parseLong(value);
        case "misorder" -> examples.add(value);
        default -> throw new IllegalArgumentException("unknown report line: '" + line + "'");
      }
    }
    if (files == null || records == null || checksum == null || misordered == null) {
      throw new IllegalArgumentException("incomplete report (files, records, checksum and"
          + " misordered lines expected): " + lines);
    }
    return new ValidationReport(files, records, checksum, misordered, List.copyOf(examples));
  }
}

package org.fawnpack.minicluster;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/** Reads a counting job's text output (key TAB count per line, in part-* files). */
public final class JobOutputs {

  private JobOutputs() {}

  public static Map<String, Long> read(FileSystem fs, Path outputDir) throws IOException {
    Map<String, Long> output = new HashMap<>();
    for (FileStatus part : fs.listStatus(outputDir, p -> p.getName().startsWith("part-"))) {
      try (BufferedReader in = new BufferedReader(
          new InputStreamReader(fs.open(part.getPath()), StandardCharsets.UTF_8))) {
        String line;
        int lineNumber = 0;
        while ((line = in.readLine()) != null) {
          lineNumber++;
          int tab = line.lastIndexOf('\t');
          if (tab < 0) {
            throw new IOException(part.getPath() + ":" + lineNumber + ": no tab in '" + line + "'");
          }
          String key = line.substring(0, tab);
          if (output.put(key, Long.parseLong(line.substring(tab + 1))) != null) {
            throw new IOException(part.getPath() + ":" + lineNumber + ": key '" + key
                + "' written twice");
          }
        }
      }
    }
    return output;
  }
}

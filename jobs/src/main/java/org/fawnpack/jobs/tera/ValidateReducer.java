package org.fawnpack.jobs.tera;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Reducer;

/**
 * The single reducer of teravalidate: walks the file summaries in file-name order, checks that
 * each non-empty file starts at or after the previous one's last key, and writes the report
 * ({@link ValidationReport}'s lines) and the counters.
 */
public final class ValidateReducer extends Reducer<Text, FileSummary, Text, NullWritable> {
  /** Misorders described in the report; the rest are only counted. */
  static final int EXAMPLES = 10;

  private final Checksum128 checksum = new Checksum128();
  private final List<String> examples = new ArrayList<>();
  private final byte[] previousLast = new byte[SortRecord.KEY_BYTES];
  private String previousFile;
  private long records;
  private long misordered;
  private long files;

  @Override
  protected void reduce(Text file, Iterable<FileSummary> summaries, Context context) {
    for (FileSummary summary : summaries) {
      files++;
      records += summary.records;
      misordered += summary.misordered;
      checksum.add(summary.checksum);
      for (String example : summary.examples) {
        if (examples.size() < EXAMPLES) {
          examples.add(example);
        }
      }
      if (summary.records == 0) {
        continue;
      }
      if (previousFile != null && SortRecord.compareKeys(summary.firstKey, 0, previousLast, 0) < 0) {
        misordered++;
        if (examples.size() < EXAMPLES) {
          examples.add(file + " offset 0: first key " + SortRecord.keyHex(summary.firstKey, 0)
              + " before the last key " + SortRecord.keyHex(previousLast, 0) + " of "
              + previousFile);
        }
      }
      previousFile = file.toString();
      System.arraycopy(summary.lastKey, 0, previousLast, 0, SortRecord.KEY_BYTES);
    }
  }

  @Override
  protected void cleanup(Context context) throws IOException, InterruptedException {
    context.getCounter(TeraCounter.FILES_VALIDATED).increment(files);
    context.getCounter(TeraCounter.RECORDS_VALIDATED).increment(records);
    context.getCounter(TeraCounter.MISORDERED).increment(misordered);
    ValidationReport report = new ValidationReport(files, records, checksum, misordered, examples);
    for (String line : report.lines()) {
      context.write(new Text(line), NullWritable.get());
    }
  }
}

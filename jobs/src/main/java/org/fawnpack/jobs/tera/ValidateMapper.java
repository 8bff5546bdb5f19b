package org.fawnpack.jobs.tera;

import java.io.IOException;
import java.util.zip.CRC32;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;

/**
 * Reads one whole file: checks each key against the one before, sums the records' CRC32s, and
 * emits the file's {@link FileSummary} under its path (so the single reducer sees the files in
 * name order, the order of terasort's part files).
 */
public final class ValidateMapper extends Mapper<SortKey, SortValue, Text, FileSummary> {
  private final CRC32 crc = new CRC32();
  private final FileSummary summary = new FileSummary();
  private String file;
  private long offset;

  @Override
  protected void setup(Context context) {
    FileSplit split = (FileSplit) context.getInputSplit();
    file = split.getPath().toString();
    offset = split.getStart();
  }

  @Override
  protected void map(SortKey key, SortValue value, Context context) {
    byte[] k = key.bytes();
    if (summary.records == 0) {
      System.arraycopy(k, 0, summary.firstKey, 0, SortRecord.KEY_BYTES);
    } else if (SortRecord.compareKeys(k, 0, summary.lastKey, 0) < 0) {
      summary.misordered++;
      if (summary.examples.size() < FileSummary.EXAMPLES) {
        summary.examples.add(file + " offset " + offset + ": key " + SortRecord.keyHex(k, 0)
            + " after " + SortRecord.keyHex(summary.lastKey, 0));
      }
    }
    System.arraycopy(k, 0, summary.lastKey, 0, SortRecord.KEY_BYTES);
    crc.reset();
    crc.update(k);
    crc.update(value.bytes());
    summary.checksum.add(crc.getValue());
    summary.records++;
    offset += SortRecord.BYTES;
  }

  @Override
  protected void cleanup(Context context) throws IOException, InterruptedException {
    context.write(new Text(file), summary);
  }
}

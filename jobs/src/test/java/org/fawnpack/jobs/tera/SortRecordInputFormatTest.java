package org.fawnpack.jobs.tera;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Splits on record boundaries, reading every record once, and truncated files. */
class SortRecordInputFormatTest {

  @TempDir
  Path dir;

  private static byte[] records(long first, int n) {
    RecordGenerator generator = new RecordGenerator();
    generator.seek(first);
    byte[] data = new byte[n * SortRecord.BYTES];
    for (int i = 0; i < n; i++) {
      generator.next(data, i * SortRecord.BYTES);
    }
    return data;
  }

  private Job job(int splits, Path... inputs) throws Exception {
    Configuration conf = new Configuration();
    conf.set("fs.defaultFS", "file:///");
    Job job = Job.getInstance(conf);
    for (Path input : inputs) {
      FileInputFormat.addInputPath(job, new org.apache.hadoop.fs.Path(input.toUri()));
    }
    job.getConfiguration().setInt(SortRecordInputFormat.SPLITS, splits);
    return job;
  }

  @Test
  void getSplits_records_everyRecordOnceInOrder() throws Exception {
    byte[] a = records(0, 1003);
    byte[] b = records(1003, 17);
    Files.write(dir.resolve("a"), a);
    Files.write(dir.resolve("b"), b);
    Job job = job(4, dir.resolve("a"), dir.resolve("b"));
    List<InputSplit> splits = new SortRecordInputFormat().getSplits(job);
    assertEquals(4, splits.size(), splits.toString());
    ByteArrayOutputStream read = new ByteArrayOutputStream();
    for (InputSplit split : splits) {
      // 1020 records in 4 equal splits; the last runs from file a into file b.
      assertEquals(255 * SortRecord.BYTES, split.getLength());
      try (SortRecordReader reader = new SortRecordReader()) {
        reader.open(split, job.getConfiguration());
        while (reader.nextKeyValue()) {
          read.write(reader.getCurrentKey().bytes());
          read.write(reader.getCurrentValue().bytes());
        }
      }
    }
    ByteArrayOutputStream expected = new ByteArrayOutputStream();
    expected.write(a);
    expected.write(b);
    assertArrayEquals(expected.toByteArray(), read.toByteArray());
  }

  @Test
  void getSplits_truncatedFile_namesFileAndOffset() throws Exception {
    byte[] data = records(0, 50);
    Files.write(dir.resolve("whole"), data);
    Files.write(dir.resolve("cut"), java.util.Arrays.copyOf(data, 4950 + 37));
    Job job = job(2, dir.resolve("whole"), dir.resolve("cut"));
    TruncatedRecordException e = assertThrows(TruncatedRecordException.class,
        () -> new SortRecordInputFormat().getSplits(job));
    assertEquals(4900, e.offset());
    assertTrue(e.getMessage().contains("/cut: truncated record at offset 4900"), e.getMessage());
  }

  @Test
  void reader_fileShorterThanItsSplit_namesFileAndOffset() throws Exception {
    Path file = dir.resolve("shrunk");
    Files.write(file, java.util.Arrays.copyOf(records(0, 30), 2050));
    FileSystem fs = FileSystem.getLocal(new Configuration());
    try (SortRecordReader reader = new SortRecordReader()) {
      reader.open(new org.apache.hadoop.fs.Path(file.toUri()), 0, 3000, fs);
      TruncatedRecordException e = assertThrows(TruncatedRecordException.class, () -> {
        while (reader.nextKeyValue()) {
          // read to the cut
        }
      });
      assertEquals(2000, e.offset());
      assertTrue(e.getMessage().contains("shrunk: truncated record at offset 2000"),
          e.getMessage());
    }
  }
}

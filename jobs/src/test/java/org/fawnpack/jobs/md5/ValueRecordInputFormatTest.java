package org.fawnpack.jobs.md5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.lib.input.CombineFileSplit;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.fawnpack.input.CorruptInputException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Even, record-aligned splits over real files, and the reader's errors. */
class ValueRecordInputFormatTest {
  @TempDir
  Path tmp;

  /** A file of the consecutive values first .. first + count - 1, big-endian. */
  private Path values(String name, int first, int count) throws Exception {
    ByteBuffer buf = ByteBuffer.allocate(4 * count);
    for (int i = 0; i < count; i++) {
      buf.putInt(first + i);
    }
    Path file = tmp.resolve(name);
    Files.write(file, buf.array());
    return file;
  }

  private Job job(int maps) throws Exception {
    Configuration conf = Md5LocalJobTest.localConf();
    conf.setInt(Md5Config.MAPS.name(), maps);
    Job job = Job.getInstance(conf);
    FileInputFormat.addInputPath(job, new org.apache.hadoop.fs.Path(tmp.toUri()));
    return job;
  }

  private static List<Long> read(InputSplit split, Configuration conf) throws Exception {
    List<Long> seen = new ArrayList<>();
    try (ValueRecordReader reader = new ValueRecordReader()) {
      reader.initialize(split, new TaskAttemptContextImpl(conf, new TaskAttemptID()));
      while (reader.nextKeyValue()) {
        seen.add(ValueRecords.decode(reader.getCurrentValue().getBytes(), 0));
      }
    }
    return seen;
  }

  @Test
  void getSplits_evenRecordCountsAcrossFilesAndEveryValueReadOnceInOrder() throws Exception {
    values("part-0", 0, 10);
    values("part-1", 10, 7);
    values("part-2", 17, 3);
    Files.write(tmp.resolve("_SUCCESS"), new byte[0]);
    Job job = job(4);
    List<InputSplit> splits = new ValueRecordInputFormat().getSplits(job);
    assertEquals(4, splits.size());
    List<Long> all = new ArrayList<>();
    for (InputSplit split : splits) {
      assertEquals(20, split.getLength()); // 20 records / 4 maps = 5 records of 4 bytes
      all.addAll(read(split, job.getConfiguration()));
    }
    List<Long> expected = new ArrayList<>();
    for (long v = 0; v < 20; v++) {
      expected.add(v);
    }
    assertEquals(expected, all);
  }

  @Test
  void getSplits_fileNotWholeRecords_namesFileAndOffset() throws Exception {
    values("part-0", 0, 4);
    Path ragged = tmp.resolve("part-1");
    Files.write(ragged, new byte[7]);
    CorruptInputException e = assertThrows(CorruptInputException.class,
        () -> new ValueRecordInputFormat().getSplits(job(2)));
    assertTrue(e.getMessage().contains("part-1: length 7 bytes"), e.getMessage());
    assertTrue(e.getMessage().contains("partial record of 3 byte(s) at offset 4"), e.getMessage());
  }

  @Test
  void reader_fileShrankAfterSplitting_namesFileAndOffset() throws Exception {
    Path file = values("part-0", 0, 100);
    Job job = job(1);
    InputSplit split = new ValueRecordInputFormat().getSplits(job).get(0);
    Files.write(file, java.util.Arrays.copyOf(Files.readAllBytes(file), 4 * 60 + 2));
    CorruptInputException e = assertThrows(CorruptInputException.class,
        () -> read(split, job.getConfiguration()));
    assertTrue(e.getMessage().contains("part-0: file ends at offset 242, inside or before the"
        + " record at offset 240"), e.getMessage());
  }

  @Test
  void reader_splitInsideARecord_namesFileAndOffset() throws Exception {
    Path file = values("part-0", 0, 4);
    CombineFileSplit split = new CombineFileSplit(
        new org.apache.hadoop.fs.Path[] {new org.apache.hadoop.fs.Path(file.toUri())},
        new long[] {2}, new long[] {8}, new String[0]);
    CorruptInputException e = assertThrows(CorruptInputException.class,
        () -> read(split, new Configuration()));
    assertTrue(e.getMessage().contains("part-0: a split starts at offset 2, inside a 4-byte"
        + " record"), e.getMessage());
  }
}

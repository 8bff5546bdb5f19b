package org.fawnpack.jobs.tera;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads sort-benchmark files as (key, value) records. Splits are cut on record boundaries and
 * sized for {@value #SPLITS} splits in all (terasort sets it to one per map slot), never across
 * files; with {@value #SPLITS} = 0 every file is one split (teravalidate). A file whose length is
 * not a multiple of 100 bytes is refused when the splits are made, naming the file and offset.
 */
public class SortRecordInputFormat extends FileInputFormat<SortKey, SortValue> {
  /** Splits to aim for over the whole input; 0 = one split per file. */
  public static final String SPLITS = "fawn.terasort.input.splits";

  private static final Logger LOG = LoggerFactory.getLogger(SortRecordInputFormat.class);
  /** A file's last piece smaller than this share of a split joins the split before it. */
  private static final double SLOP = 0.1;

  @Override
  public List<InputSplit> getSplits(JobContext job) throws IOException {
    Configuration conf = job.getConfiguration();
    List<FileStatus> files = listStatus(job);
    long total = 0;
    for (FileStatus file : files) {
      long length = file.getLen();
      if (length % SortRecord.BYTES != 0) {
        throw new TruncatedRecordException(file.getPath(),
            length - length % SortRecord.BYTES, length);
      }
      total += length;
    }
    int target = conf.getInt(SPLITS, 0);
    List<InputSplit> splits = new ArrayList<>();
    for (FileStatus file : files) {
      if (target <= 0 || file.getLen() == 0) {
        splits.add(new FileSplit(file.getPath(), 0, file.getLen(), hosts(file, 0, file.getLen())));
        continue;
      }
      long records = Math.max(1, ceilDiv(ceilDiv(total, target), SortRecord.BYTES));
      long splitBytes = records * SortRecord.BYTES;
      long length = file.getLen();
      long start = 0;
      while (start < length) {
        long size = Math.min(splitBytes, length - start);
        long rest = length - start - size;
        if (rest > 0 && rest < splitBytes * SLOP) {
          size += rest;
        }
        splits.add(new FileSplit(file.getPath(), start, size, hosts(file, start, size)));
        start += size;
      }
    }
    LOG.info("{} splits over {} files, {} bytes (target {})", splits.size(), files.size(), total,
        target);
    return splits;
  }

  /** The hosts holding most of the split's bytes: those of the block where its middle is. */
  private String[] hosts(FileStatus file, long start, long length) throws IOException {
    if (length == 0) {
      return new String[0];
    }
    FileSystem fs = file.getPath().getFileSystem(new Configuration(false));
    BlockLocation[] blocks = file instanceof org.apache.hadoop.fs.LocatedFileStatus located
        ? located.getBlockLocations() : fs.getFileBlockLocations(file, start, length);
    long middle = start + length / 2;
    for (BlockLocation block : blocks) {
      if (middle >= block.getOffset() && middle < block.getOffset() + block.getLength()) {
        return block.getHosts();
      }
    }
    return new String[0];
  }

  private static long ceilDiv(long a, long b) {
    return (a + b - 1) / b;
  }

  @Override
  public RecordReader<SortKey, SortValue> createRecordReader(InputSplit split,
      TaskAttemptContext context) {
    return new SortRecordReader();
  }
}

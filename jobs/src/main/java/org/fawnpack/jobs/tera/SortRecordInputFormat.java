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
import org.apache.hadoop.mapreduce.lib.input.CombineFileSplit;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads sort-benchmark files as (key, value) records. With {@value #SPLITS} = n > 0 (terasort:
 * one per map slot) the input becomes n splits of equal record counts, cut on record boundaries
 * and running on from one file into the next ({@link CombineFileSplit}s); with 0 every file is
 * one {@link FileSplit} (teravalidate, which checks each file). A file whose length is
 * not a multiple of 100 bytes is refused when the splits are made, naming the file and offset.
 */
public class SortRecordInputFormat extends FileInputFormat<SortKey, SortValue> {
  /** Splits to aim for over the whole input; 0 = one split per file. */
  public static final String SPLITS = "fawn.jobs.terasort.input.splits";

  private static final Logger LOG = LoggerFactory.getLogger(SortRecordInputFormat.class);

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
    List<InputSplit> splits = target <= 0 ? onePerFile(conf, files)
        : evenSplits(conf, files, total / SortRecord.BYTES, target);
    LOG.info("{} splits over {} files, {} bytes (target {})", splits.size(), files.size(), total,
        target);
    return splits;
  }

  /** The hosts holding most of the split's bytes: those of the block where its middle is. */
  private static String[] hosts(Configuration conf, FileStatus file, long start, long length)
      throws IOException {
    if (length == 0) {
      return new String[0];
    }
    FileSystem fs = file.getPath().getFileSystem(conf);
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

  private static List<InputSplit> onePerFile(Configuration conf, List<FileStatus> files)
      throws IOException {
    List<InputSplit> splits = new ArrayList<>();
    for (FileStatus file : files) {
      splits.add(new FileSplit(file.getPath(), 0, file.getLen(),
          hosts(conf, file, 0, file.getLen())));
    }
    return splits;
  }

  /**
   * {@code target} splits of equal record counts (within one record), each made of consecutive
   * pieces of the files in order: a split may end in one file and go on in the next, so two
   * files never force a small leftover split or a bigger map than the others.
   */
  private static List<InputSplit> evenSplits(Configuration conf, List<FileStatus> files,
      long totalRecords, int target) throws IOException {
    int count = (int) Math.max(1, Math.min(target, totalRecords));
    List<InputSplit> splits = new ArrayList<>(count);
    int fileIndex = 0;
    long fileRecord = 0;
    for (int s = 0; s < count; s++) {
      long want = totalRecords * (s + 1) / count - totalRecords * s / count;
      List<Path> paths = new ArrayList<>();
      List<Long> starts = new ArrayList<>();
      List<Long> lengths = new ArrayList<>();
      String[] hosts = new String[0];
      long largest = -1;
      while (want > 0) {
        FileStatus file = files.get(fileIndex);
        long records = file.getLen() / SortRecord.BYTES;
        long take = Math.min(want, records - fileRecord);
        if (take > 0) {
          long start = fileRecord * SortRecord.BYTES;
          long length = take * SortRecord.BYTES;
          paths.add(file.getPath());
          starts.add(start);
          lengths.add(length);
          if (length > largest) {
            largest = length;
            hosts = hosts(conf, file, start, length);
          }
          want -= take;
          fileRecord += take;
        }
        if (fileRecord == records) {
          fileIndex++;
          fileRecord = 0;
        }
      }
      splits.add(new CombineFileSplit(paths.toArray(new Path[0]),
          starts.stream().mapToLong(Long::longValue).toArray(),
          lengths.stream().mapToLong(Long::longValue).toArray(), hosts));
    }
    return splits;
  }

  @Override
  public RecordReader<SortKey, SortValue> createRecordReader(InputSplit split,
      TaskAttemptContext context) {
    return new SortRecordReader();
  }
}

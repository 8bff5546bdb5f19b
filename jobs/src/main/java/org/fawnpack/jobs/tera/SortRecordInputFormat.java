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
 * Reads sort-benchmark files as (key, value) records. Splits are cut on record boundaries, never
 * across files: {@value #SPLITS} splits in all (terasort sets it to one per map slot), shared
 * among the files by their sizes, each file cut into equal pieces; with {@value #SPLITS} = 0
 * every file is one split (teravalidate). A file whose length is
 * not a multiple of 100 bytes is refused when the splits are made, naming the file and offset.
 */
public class SortRecordInputFormat extends FileInputFormat<SortKey, SortValue> {
  /** Splits to aim for over the whole input; 0 = one split per file. */
  public static final String SPLITS = "fawn.terasort.input.splits";

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
    int[] piecesPerFile = target <= 0 ? null : SplitShares.allocate(lengths(files), target);
    List<InputSplit> splits = new ArrayList<>();
    for (int f = 0; f < files.size(); f++) {
      FileStatus file = files.get(f);
      int pieces = piecesPerFile == null ? 1 : piecesPerFile[f];
      long records = file.getLen() / SortRecord.BYTES;
      long start = 0;
      for (int i = 0; i < pieces; i++) {
        long end = records * (i + 1) / pieces * SortRecord.BYTES;
        splits.add(new FileSplit(file.getPath(), start, end - start, hosts(conf, file, start,
            end - start)));
        start = end;
      }
    }
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

  private static long[] lengths(List<FileStatus> files) {
    return files.stream().mapToLong(FileStatus::getLen).toArray();
  }

  @Override
  public RecordReader<SortKey, SortValue> createRecordReader(InputSplit split,
      TaskAttemptContext context) {
    return new SortRecordReader();
  }
}

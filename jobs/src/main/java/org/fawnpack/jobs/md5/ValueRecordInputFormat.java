package org.fawnpack.jobs.md5;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.input.CombineFileSplit;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.fawnpack.input.CorruptInputException;

/**
 * md5search's input: files of 4-byte records (see {@link ValueRecords}), all of them cut into
 * {@link Md5Config#MAPS} splits (default one per vcore) of equal record counts, as the thesis
 * cut its input into even chunks. A split may span files (a {@link CombineFileSplit}), so the
 * cut does not depend on how many files md5gen wrote; every cut falls on a record boundary.
 * A file whose length is not a whole number of records fails the job at submission, naming the
 * file and the offset of the partial record.
 */
public final class ValueRecordInputFormat extends FileInputFormat<NullWritable, BytesWritable> {

  @Override
  public List<InputSplit> getSplits(JobContext context) throws IOException {
    Configuration conf = context.getConfiguration();
    List<FileStatus> files = recordFiles(listStatus(context), conf);
    long records = 0;
    for (FileStatus file : files) {
      records += file.getLen() / ValueRecords.RECORD_BYTES;
    }
    if (records == 0) {
      return List.of();
    }
    long[] cuts = ValueRecords.evenCuts(records, Md5Config.maps(conf, records));
    List<InputSplit> splits = new ArrayList<>(cuts.length - 1);
    int fileIndex = 0;
    long offsetInFile = 0;
    for (int s = 0; s + 1 < cuts.length; s++) {
      long bytesLeft = (cuts[s + 1] - cuts[s]) * ValueRecords.RECORD_BYTES;
      List<Path> paths = new ArrayList<>();
      List<Long> starts = new ArrayList<>();
      List<Long> lengths = new ArrayList<>();
      while (bytesLeft > 0) {
        FileStatus file = files.get(fileIndex);
        long take = Math.min(bytesLeft, file.getLen() - offsetInFile);
        if (take > 0) {
          paths.add(file.getPath());
          starts.add(offsetInFile);
          lengths.add(take);
          offsetInFile += take;
          bytesLeft -= take;
        }
        if (offsetInFile == file.getLen()) {
          fileIndex++;
          offsetInFile = 0;
        }
      }
      splits.add(new CombineFileSplit(paths.toArray(new Path[0]),
          starts.stream().mapToLong(Long::longValue).toArray(),
          lengths.stream().mapToLong(Long::longValue).toArray(),
          hostsOf(paths.get(0), starts.get(0), conf)));
    }
    return splits;
  }

  /**
   * The non-empty regular files among {@code listed}, in path order, each checked to hold whole
   * records.
   *
   * @throws CorruptInputException naming the first file whose length is not a multiple of 4
   */
  static List<FileStatus> recordFiles(List<FileStatus> listed, Configuration conf)
      throws CorruptInputException {
    List<FileStatus> files = new ArrayList<>();
    for (FileStatus status : listed) {
      if (!status.isFile() || status.getLen() == 0) {
        continue;
      }
      long partial = status.getLen() % ValueRecords.RECORD_BYTES;
      if (partial != 0) {
        throw new CorruptInputException(status.getPath() + ": length " + status.getLen()
            + " bytes is not a whole number of 4-byte records: a partial record of " + partial
            + " byte(s) at offset " + (status.getLen() - partial), status.getPath(), null);
      }
      files.add(status);
    }
    files.sort(Comparator.comparing(FileStatus::getPath));
    return files;
  }

  /** Records in the job's input files, after {@link #recordFiles}'s checks. */
  static long countRecords(JobContext context) throws IOException {
    long records = 0;
    for (FileStatus file : recordFiles(new ValueRecordInputFormat().listStatus(context),
        context.getConfiguration())) {
      records += file.getLen() / ValueRecords.RECORD_BYTES;
    }
    return records;
  }

  /** The hosts of the block where the split starts: where its first bytes are local. */
  private static String[] hostsOf(Path file, long start, Configuration conf) throws IOException {
    FileSystem fs = file.getFileSystem(conf);
    BlockLocation[] blocks = fs.getFileBlockLocations(file, start, 1);
    return blocks.length == 0 ? new String[0] : blocks[0].getHosts();
  }

  @Override
  public RecordReader<NullWritable, BytesWritable> createRecordReader(InputSplit split,
      TaskAttemptContext context) {
    return new ValueRecordReader();
  }
}

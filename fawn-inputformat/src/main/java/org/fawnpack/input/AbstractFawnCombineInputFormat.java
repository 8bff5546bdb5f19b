package org.fawnpack.input;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.compress.CompressionCodecFactory;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.lib.input.CombineFileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The split logic shared by the FAWN combined text formats.
 *
 * <p>Stock CombineFileInputFormat with no maximum split size makes one split per rack, that is one
 * map for a whole flat cluster; this class always sets the maximum, from the policy in
 * {@link FawnInputConfig#POLICY}. Input directories are read recursively; hidden files
 * ({@code _*}, {@code .*}) and empty files are skipped; compressed files are never cut.
 */
abstract class AbstractFawnCombineInputFormat<K> extends CombineFileInputFormat<K, Text> {

  private static final Logger LOG = LoggerFactory.getLogger(AbstractFawnCombineInputFormat.class);

  /** The listing made for sizing, handed to the superclass so the input is listed only once. */
  private List<FileStatus> listingForThisCall;
  private CompressionCodecFactory codecs;

  @Override
  public List<InputSplit> getSplits(JobContext job) throws IOException {
    Configuration conf = job.getConfiguration();
    CombineSplitPolicy policy = FawnInputConfig.policy(conf);
    conf.setBoolean(FileInputFormat.INPUT_DIR_RECURSIVE, true);
    List<FileStatus> files = listStatus(job);
    long totalBytes = files.stream().mapToLong(FileStatus::getLen).sum();
    long maxSplitBytes = maxSplitBytes(policy, conf, totalBytes);
    setMaxSplitSize(maxSplitBytes);
    listingForThisCall = files;
    try {
      List<InputSplit> splits = super.getSplits(job);
      LOG.info("{} input files, {} bytes -> {} combined splits of at most ~{} bytes ({} policy)",
          files.size(), totalBytes, splits.size(), maxSplitBytes, policy.configName());
      return splits;
    } finally {
      listingForThisCall = null;
    }
  }

  private static long maxSplitBytes(CombineSplitPolicy policy, Configuration conf,
      long totalBytes) throws IOException {
    long max = FawnInputConfig.maxSplitBytes(conf);
    if (policy == CombineSplitPolicy.FIXED) {
      return max;
    }
    int vcores = ClusterVcores.forJob(conf);
    return SplitSizer.onePerVcore(totalBytes, vcores, FawnInputConfig.minSplitBytes(conf), max);
  }

  /** Recursive listing without hidden files (FileInputFormat's filter) and without empty files. */
  @Override
  protected List<FileStatus> listStatus(JobContext job) throws IOException {
    if (listingForThisCall != null) {
      return listingForThisCall;
    }
    job.getConfiguration().setBoolean(FileInputFormat.INPUT_DIR_RECURSIVE, true);
    List<FileStatus> nonEmpty = new ArrayList<>();
    for (FileStatus status : super.listStatus(job)) {
      if (status.isFile() && status.getLen() > 0) {
        nonEmpty.add(status);
      }
    }
    return nonEmpty;
  }

  /** Compressed files are read whole: a gzip stream cannot be cut, and bzip2 is kept whole too. */
  @Override
  protected boolean isSplitable(JobContext context, Path file) {
    if (codecs == null) { // built once: getSplits asks for every file
      codecs = new CompressionCodecFactory(context.getConfiguration());
    }
    return codecs.getCodec(file) == null;
  }
}

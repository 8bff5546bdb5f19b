package org.fawnpack.jobs.tera;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.lib.input.CombineFileSplit;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;

/**
 * Picks terasort's cut points from a sample of the input's keys: {@code sampleSplits} splits
 * spread evenly over the input, from each an equal share of {@code sampleSize} keys read as
 * runs at evenly spaced places in the split (not only its head, so an input that is already
 * sorted within a split is still sampled across its range); the sorted sample is then cut into
 * equal parts, one per reducer.
 */
public final class KeySampler {
  /** Runs of consecutive records read per sampled split. */
  private static final int RUNS_PER_SPLIT = 8;

  private final Configuration conf;
  private final int sampleSize;
  private final int sampleSplits;

  public KeySampler(Configuration conf, int sampleSize, int sampleSplits) {
    this.conf = conf;
    this.sampleSize = sampleSize;
    this.sampleSplits = sampleSplits;
  }

  /** Up to {@code sampleSize} keys from the splits, in no particular order. */
  public List<byte[]> sample(List<InputSplit> splits) throws IOException {
    List<byte[]> keys = new ArrayList<>(sampleSize);
    int chosen = Math.min(sampleSplits, splits.size());
    for (int i = 0; i < chosen; i++) {
      InputSplit split = splits.get((int) ((long) i * splits.size() / chosen));
      int want = sampleSize / chosen + (i < sampleSize % chosen ? 1 : 0);
      if (split instanceof CombineFileSplit pieces) {
        long total = pieces.getLength();
        int given = 0;
        for (int p = 0; p < pieces.getNumPaths(); p++) {
          int share = p == pieces.getNumPaths() - 1 ? want - given
              : (int) (want * pieces.getLength(p) / Math.max(1, total));
          samplePiece(pieces.getPath(p), pieces.getOffset(p), pieces.getLength(p), share, keys);
          given += share;
        }
      } else {
        FileSplit file = (FileSplit) split;
        samplePiece(file.getPath(), file.getStart(), file.getLength(), want, keys);
      }
    }
    return keys;
  }

  private void samplePiece(Path path, long start, long length, int want, List<byte[]> keys)
      throws IOException {
    long records = length / SortRecord.BYTES;
    if (records == 0 || want == 0) {
      return;
    }
    int runs = (int) Math.min(RUNS_PER_SPLIT, Math.min(records, want));
    for (int run = 0; run < runs; run++) {
      long first = records * run / runs;
      long runLength = Math.min(want / runs + (run < want % runs ? 1 : 0),
          records * (run + 1) / runs - first);
      try (SortRecordReader reader = new SortRecordReader()) {
        reader.open(path, start + first * SortRecord.BYTES, runLength * SortRecord.BYTES,
            path.getFileSystem(conf));
        while (reader.nextKeyValue()) {
          keys.add(reader.getCurrentKey().bytes().clone());
        }
      }
    }
  }

  /** {@code partitions − 1} cut points that split the sorted sample into equal parts. */
  public static List<byte[]> cutPoints(List<byte[]> sample, int partitions) {
    if (partitions < 1) {
      throw new IllegalArgumentException("partitions must be at least 1: " + partitions);
    }
    if (sample.isEmpty()) {
      // An empty input: any cut points sort nothing correctly; all-zero keys are valid ones.
      return java.util.Collections.nCopies(partitions - 1, new byte[SortRecord.KEY_BYTES]);
    }
    byte[][] sorted = sample.toArray(new byte[0][]);
    Arrays.sort(sorted, Arrays::compareUnsigned);
    List<byte[]> cuts = new ArrayList<>(partitions - 1);
    for (int i = 1; i < partitions; i++) {
      cuts.add(sorted[(int) ((long) i * sorted.length / partitions)]);
    }
    return cuts;
  }
}

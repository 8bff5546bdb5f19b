package org.fawnpack.kv.hadoop;

import java.io.IOException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;

/**
 * {@link FawnKvSnapshotInputFormat} with keys and values as {@link Text} (the same bytes, read
 * as UTF-8 by whoever calls {@code toString()}).
 */
public class FawnKvSnapshotTextInputFormat extends TextViewFormat {

  public FawnKvSnapshotTextInputFormat() {
    super(new FawnKvSnapshotInputFormat());
  }

  /** Makes {@code job} read the snapshot in {@code dir} as text. */
  public static void setUp(Job job, Path dir) throws IOException {
    FawnKvSnapshotInputFormat.setUp(job, dir);
    job.setInputFormatClass(FawnKvSnapshotTextInputFormat.class);
  }
}

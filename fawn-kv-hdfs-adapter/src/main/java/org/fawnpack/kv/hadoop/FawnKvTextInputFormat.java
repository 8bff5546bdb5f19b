package org.fawnpack.kv.hadoop;

import java.io.IOException;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;

/**
 * {@link FawnKvInputFormat} with keys and values as {@link Text} (their bytes as they are,
 * read as UTF-8 by whoever calls {@code toString()}).
 */
public class FawnKvTextInputFormat extends TextViewFormat {

  public FawnKvTextInputFormat() {
    super(new FawnKvInputFormat());
  }

  /** Makes {@code job} read FAWN-KV as text, with the cluster secret in its credentials. */
  public static void setUp(Job job) throws IOException {
    FawnKvInputFormat.setUp(job);
    job.setInputFormatClass(FawnKvTextInputFormat.class);
  }
}

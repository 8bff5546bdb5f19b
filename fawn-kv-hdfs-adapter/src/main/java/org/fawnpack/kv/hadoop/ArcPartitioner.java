package org.fawnpack.kv.hadoop;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.hadoop.conf.Configurable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.mapreduce.Partitioner;

/**
 * Sends each record to the reduce that builds its arc's file: reduce i for arc i of the
 * {@link AttachPlan}, by the key's ring position under the cluster's ring key.
 */
public class ArcPartitioner extends Partitioner<BytesWritable, BytesWritable>
    implements Configurable {
  private Configuration conf;
  private AttachPlan plan;

  @Override
  public void setConf(Configuration conf) {
    this.conf = conf;
    try {
      this.plan = AttachPlan.read(conf, null);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public Configuration getConf() {
    return conf;
  }

  @Override
  public int getPartition(BytesWritable key, BytesWritable value, int reduces) {
    if (reduces != plan.arcs().size()) {
      throw new IllegalStateException("a bulk load by attached files has one reduce per arc ("
          + plan.arcs().size() + "), not " + reduces);
    }
    return plan.arcOf(key.copyBytes());
  }
}

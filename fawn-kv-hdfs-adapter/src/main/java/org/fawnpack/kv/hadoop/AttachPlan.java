package org.fawnpack.kv.hadoop;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.Credentials;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.ring.RingHash;
import org.fawnpack.kv.store.KeyRange;

/**
 * What a bulk load by attached files fixes at submission: the ring's arcs in order (reduce i
 * builds arc i's file) in the job's configuration ({@code fawn.kv.output.attach.arcs},
 * {@code fawn.kv.output.attach.epoch}), and the ring key in its credentials, so every task
 * places a key where the back-ends look for it. A ring that moves before the commit (a join
 * splits an arc, a removal merges one) fails the commit by name and loads nothing.
 */
record AttachPlan(long epoch, List<KeyRange> arcs, RingHash hash) {
  static final String ARCS = "fawn.kv.output.attach.arcs";
  static final String EPOCH = "fawn.kv.output.attach.epoch";
  static final Text RING_KEY_ALIAS = new Text("fawn.kv.ring-key");

  AttachPlan {
    arcs = List.copyOf(arcs);
  }

  /** Records {@code ring}'s arcs into the job's configuration and its key into credentials. */
  static AttachPlan record(Ring ring, RingHash hash, Configuration conf, Credentials credentials)
      throws IOException {
    List<KeyRange> arcs = new ArrayList<>();
    StringBuilder text = new StringBuilder();
    for (Chain chain : ring.chains()) {
      arcs.add(chain.range());
      text.append(text.length() == 0 ? "" : ",").append(Long.toHexString(
          chain.range().startExclusive())).append(':').append(Long.toHexString(
              chain.range().endInclusive()));
    }
    conf.set(ARCS, text.toString());
    conf.setLong(EPOCH, ring.epoch());
    credentials.addSecretKey(RING_KEY_ALIAS, hash.keyBytes());
    JobSecrets.shareWithLocalTasks(RING_KEY_ALIAS, conf, credentials);
    return new AttachPlan(ring.epoch(), arcs, hash);
  }

  /** The plan a task or the committer reads back; {@code credentials} null: the conf's own. */
  static AttachPlan read(Configuration conf, Credentials credentials) throws IOException {
    String text = conf.get(ARCS);
    if (text == null || text.isBlank()) {
      throw new IOException(ARCS + " is not set: set the job up with"
          + " FawnKvAttachOutputFormat.setUp(job)");
    }
    List<KeyRange> arcs = new ArrayList<>();
    for (String arc : text.split(",")) {
      String[] ends = arc.split(":");
      arcs.add(new KeyRange(Long.parseUnsignedLong(ends[0], 16),
          Long.parseUnsignedLong(ends[1], 16)));
    }
    byte[] key = JobSecrets.find(RING_KEY_ALIAS, conf, credentials);
    if (key == null) {
      throw new IOException("the job's credentials carry no ring key (" + RING_KEY_ALIAS
          + "): set the job up with FawnKvAttachOutputFormat.setUp(job)");
    }
    return new AttachPlan(conf.getLong(EPOCH, -1), arcs, new RingHash(key));
  }

  /** The index of the arc that holds {@code key} (the reduce that builds its file). */
  int arcOf(byte[] key) {
    long position = hash.position(key);
    for (int i = 0; i < arcs.size(); i++) {
      if (arcs.get(i).contains(position)) {
        return i;
      }
    }
    throw new IllegalStateException("no arc of epoch " + epoch + " holds position "
        + Long.toHexString(position) + ": the plan's arcs do not cover the ring");
  }
}

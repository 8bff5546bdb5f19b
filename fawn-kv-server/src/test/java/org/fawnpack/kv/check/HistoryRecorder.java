package org.fawnpack.kv.check;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.fawnpack.kv.client.FawnKvClient;
import org.fawnpack.kv.client.KvException;

/**
 * Runs client operations and records each one per key with its invocation and answer times
 * and its outcome: answered (OK), refused (FAILED: applied nowhere) or no answer / failed on the
 * way (INDETERMINATE for a write; a get that fails has no effect and is not recorded).
 */
public final class HistoryRecorder {
  private final Map<ByteBuffer, List<Op>> histories = new ConcurrentHashMap<>();
  /** The last write that did not succeed, for a test's failure message. */
  private volatile IOException lastWriteFailure;

  private List<Op> of(byte[] key) {
    return histories.computeIfAbsent(ByteBuffer.wrap(key.clone()),
        k -> java.util.Collections.synchronizedList(new ArrayList<>()));
  }

  /** Why the last put or delete that failed did, or null. */
  public IOException lastWriteFailure() {
    return lastWriteFailure;
  }

  /** Puts and records; returns the outcome. */
  public Op.Outcome put(FawnKvClient client, byte[] key, byte[] value) {
    long start = System.nanoTime();
    Op.Outcome outcome;
    try {
      client.put(key, value);
      outcome = Op.Outcome.OK;
    } catch (IOException e) {
      lastWriteFailure = e;
      outcome = definite(e) ? Op.Outcome.FAILED : Op.Outcome.INDETERMINATE;
    }
    of(key).add(Op.put(value, start, System.nanoTime(), outcome));
    return outcome;
  }

  public void get(FawnKvClient client, byte[] key) {
    long start = System.nanoTime();
    try {
      byte[] value = client.get(key);
      of(key).add(Op.get(value, start, System.nanoTime()));
    } catch (IOException e) {
      // a failed read changed nothing and told nothing
    }
  }

  /**
   * Records a get of {@code key} that a test sent by other means than a client (a raw
   * connection to one front-end, say) and that answered {@code read} (null: absent).
   */
  public void recordGet(byte[] key, byte[] read, long invokedAt, long answeredAt) {
    of(key).add(Op.get(read, invokedAt, answeredAt));
  }

  /** Reads and records; a failure is thrown, not dropped (a read that must succeed). */
  public byte[] getOrThrow(FawnKvClient client, byte[] key) throws IOException {
    long start = System.nanoTime();
    byte[] value = client.get(key);
    of(key).add(Op.get(value, start, System.nanoTime()));
    return value;
  }

  /** Deletes and records; returns the outcome. */
  public Op.Outcome delete(FawnKvClient client, byte[] key) {
    long start = System.nanoTime();
    boolean found = false;
    Op.Outcome outcome;
    try {
      found = client.delete(key);
      outcome = Op.Outcome.OK;
    } catch (IOException e) {
      lastWriteFailure = e;
      outcome = definite(e) ? Op.Outcome.FAILED : Op.Outcome.INDETERMINATE;
    }
    of(key).add(Op.delete(found, start, System.nanoTime(), outcome));
    return outcome;
  }

  private static boolean definite(IOException e) {
    return e instanceof KvException kv && kv.refused();
  }

  /** Each key's history, as recorded. */
  public Map<ByteBuffer, List<Op>> histories() {
    return histories;
  }
}

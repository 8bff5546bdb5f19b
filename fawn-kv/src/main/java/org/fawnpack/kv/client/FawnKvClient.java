package org.fawnpack.kv.client;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.fawnpack.kv.auth.ClusterSecret;
import org.fawnpack.kv.backend.Backend;
import org.fawnpack.kv.backend.EngineKeys;
import org.fawnpack.kv.wire.Connection;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.MessageType;

/**
 * A FAWN-KV client: get, put and delete through a front-end, each with a deadline. Keys are
 * 1 to 65,528 bytes and are stored whole; values up to 16 MiB. Thread-safe: requests from many
 * threads share one pipelined connection.
 *
 * <pre>{@code
 * try (FawnKvClient kv = FawnKvClient.connect(frontEnd, Duration.ofSeconds(5), secret)) {
 *   kv.put(key, value);          // returns once the chain's tail has it durably
 *   byte[] v = kv.get(key);      // null when absent
 *   boolean had = kv.delete(key);
 * }
 * }</pre>
 *
 * (Retries, idempotent retried puts, batches and several front-ends come next:
 * docs/fawn-kv.md.)
 */
public final class FawnKvClient implements Closeable {
  private final Connection connection;
  private final Duration deadline;

  private FawnKvClient(Connection connection, Duration deadline) {
    this.connection = connection;
    this.deadline = deadline;
  }

  /**
   * Connects to the front-end at {@code frontEnd}, proving the cluster's {@code secret}; every
   * request waits at most {@code deadline}.
   */
  public static FawnKvClient connect(InetSocketAddress frontEnd, Duration deadline,
      ClusterSecret secret) throws IOException {
    return new FawnKvClient(Connection.open(frontEnd, deadline, Backend.MAX_FRAME_BYTES, secret),
        deadline);
  }

  /** The value stored under {@code key}, or null. */
  public byte[] get(byte[] key) throws IOException {
    Frame answer = call(MessageType.GET, new Frame.Payload().addBytes(checkKey(key)));
    if (answer.type() == MessageType.NOT_FOUND) {
      return null;
    }
    Frame.Fields fields = expect(answer, MessageType.VALUE).fields();
    byte[] value = fields.nextBytes(Backend.MAX_VALUE_BYTES, "the value");
    fields.end();
    return value;
  }

  /** Stores {@code value} under {@code key}; returns once every member of its chain has it. */
  public void put(byte[] key, byte[] value) throws IOException {
    if (value.length > Backend.MAX_VALUE_BYTES) {
      throw new IllegalArgumentException("the value has " + value.length + " bytes, more than "
          + Backend.MAX_VALUE_BYTES);
    }
    expect(call(MessageType.PUT, new Frame.Payload().addBytes(checkKey(key)).addBytes(value)),
        MessageType.OK);
  }

  /** Removes {@code key}; whether it was there. */
  public boolean delete(byte[] key) throws IOException {
    Frame answer = call(MessageType.DELETE, new Frame.Payload().addBytes(checkKey(key)));
    return answer.type() != MessageType.NOT_FOUND && expect(answer, MessageType.OK) != null;
  }

  private Frame call(byte type, Frame.Payload payload) throws IOException {
    try {
      return connection.call(type, 0, payload.toBytes(), deadline);
    } catch (IOException e) {
      throw new KvException(MessageType.name(type) + " failed: " + e.getMessage(), e);
    }
  }

  private static Frame expect(Frame answer, byte type) throws IOException {
    if (answer.type() == MessageType.ERROR || answer.type() == MessageType.REFUSED) {
      Frame.Fields fields = answer.fields();
      throw new KvException(new String(fields.nextBytes(Integer.MAX_VALUE, "the message"),
          StandardCharsets.UTF_8), answer.type() == MessageType.REFUSED);
    }
    if (answer.type() != type) {
      throw new KvException("expected " + MessageType.name(type) + ", the front-end answered "
          + MessageType.name(answer.type()), false);
    }
    return answer;
  }

  private static byte[] checkKey(byte[] key) {
    String problem = EngineKeys.problemWith(key);
    if (problem != null) {
      throw new IllegalArgumentException(problem);
    }
    return key;
  }

  @Override
  public void close() {
    connection.close();
  }
}

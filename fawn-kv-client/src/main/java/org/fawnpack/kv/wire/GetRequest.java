package org.fawnpack.kv.wire;

import java.util.Arrays;
import java.util.Objects;

/**
 * GET (to a front-end, or from it to the arc's tail) and DIRECT_GET (a client's, straight to the
 * tail): the key, as one byte string. Answered VALUE with the value as one byte string, or
 * NOT_FOUND with no payload ({@link #answer}, {@link #valueOf}).
 */
public record GetRequest(byte[] key) {

  public GetRequest {
    Objects.requireNonNull(key, "key");
  }

  public byte[] encode() {
    return new Frame.Payload().addBytes(key).toBytes();
  }

  /** Null when the key keeps the protocol's rules, else why not. */
  public String problem() {
    return ProtocolLimits.keyProblem(key);
  }

  /** The get a GET or DIRECT_GET frame carries, its key as long as the frame allows. */
  public static GetRequest decode(Frame frame) throws MalformedFrameException {
    if (frame.type() != MessageType.GET && frame.type() != MessageType.DIRECT_GET) {
      throw new MalformedFrameException("a get of type " + MessageType.name(frame.type()));
    }
    Frame.Fields fields = frame.fields();
    byte[] key = fields.nextBytes(Integer.MAX_VALUE, "the key");
    fields.end();
    return new GetRequest(key);
  }

  /**
   * As {@link #decode}, for a back-end: a key that breaks the rules (a front-end refuses those
   * by name first) makes the frame malformed.
   */
  public static GetRequest decodeValid(Frame frame) throws MalformedFrameException {
    GetRequest get = decode(frame);
    String problem = get.problem();
    if (problem != null) {
      throw new MalformedFrameException(problem);
    }
    return get;
  }

  /** The answer to {@code request}: VALUE with {@code value}, or NOT_FOUND when it is null. */
  public static Frame answer(Frame request, byte[] value) {
    return value == null ? MessageType.reply(request, MessageType.NOT_FOUND, null)
        : MessageType.reply(request, MessageType.VALUE, new Frame.Payload().addBytes(value)
            .toBytes());
  }

  /** The value a VALUE answer carries, or null for NOT_FOUND. */
  public static byte[] valueOf(Frame answer) throws MalformedFrameException {
    if (answer.type() == MessageType.NOT_FOUND) {
      return null;
    }
    if (answer.type() != MessageType.VALUE) {
      throw new MalformedFrameException("an answer to a get of type "
          + MessageType.name(answer.type()));
    }
    Frame.Fields fields = answer.fields();
    byte[] value = fields.nextBytes(ProtocolLimits.MAX_VALUE_BYTES, "the value");
    fields.end();
    return value;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof GetRequest g && Arrays.equals(key, g.key);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(key);
  }

  @Override
  public String toString() {
    return "GET(key " + key.length + " bytes)";
  }
}

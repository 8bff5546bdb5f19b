package org.fawnpack.kv.slice;

import java.nio.charset.StandardCharsets;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.MalformedFrameException;
import org.fawnpack.kv.wire.MessageType;

/**
 * A front-end's WRONG_SLICE answer to a request for a key it does not serve: why, for a person,
 * and its slice map, which the client follows to the owner. The request was applied nowhere.
 * Layout: the reason in UTF-8, then the map ({@link SliceCodec}), each as a 4-byte length and
 * bytes.
 */
public record WrongSlice(String why, SliceMap map) {

  public byte[] encode() {
    return new Frame.Payload().addBytes(why.getBytes(StandardCharsets.UTF_8))
        .addBytes(SliceCodec.encode(map)).toBytes();
  }

  /**
   * The answer in {@code frame}.
   *
   * @throws MalformedFrameException when it is not a WRONG_SLICE answer, or its map cannot be
   *     read
   */
  public static WrongSlice decode(Frame frame) throws MalformedFrameException {
    if (frame.type() != MessageType.WRONG_SLICE) {
      throw new MalformedFrameException("a WRONG_SLICE answer of type "
          + MessageType.name(frame.type()));
    }
    int most = frame.payload().length;
    Frame.Fields fields = frame.fields();
    String why = new String(fields.nextBytes(most, "the reason"), StandardCharsets.UTF_8);
    byte[] map = fields.nextBytes(most, "the slice map");
    fields.end();
    try {
      return new WrongSlice(why, SliceCodec.decode(map, "a WRONG_SLICE answer"));
    } catch (IllegalArgumentException e) {
      throw new MalformedFrameException(e.getMessage());
    }
  }
}

package org.fawnpack.kv.wire;

/**
 * CHAIN_SYNC, from a chain member to its successor after the writes it kept: the arc (the end of
 * its key range) and the last sequence number the sender holds of it. The successor then holds
 * everything its predecessor had, so a copied arc may serve gets; passed on down the chain.
 * Layout: two 8-byte numbers.
 */
public record ChainSync(long arcEnd, long lastSequence) {

  public byte[] encode() {
    return new Frame.Payload().addLong(arcEnd).addLong(lastSequence).toBytes();
  }

  public static ChainSync decode(Frame frame) throws MalformedFrameException {
    if (frame.type() != MessageType.CHAIN_SYNC) {
      throw new MalformedFrameException("a chain sync of type " + MessageType.name(frame.type()));
    }
    Frame.Fields fields = frame.fields();
    long arcEnd = fields.nextLong();
    long lastSequence = fields.nextLong();
    fields.end();
    return new ChainSync(arcEnd, lastSequence);
  }
}

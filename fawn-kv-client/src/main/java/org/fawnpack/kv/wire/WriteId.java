package org.fawnpack.kv.wire;

/**
 * Who sent a write and which of its requests it is: a client's random id and its own request
 * number, carried by every PUT and DELETE and down the chain with the write. A client sends a
 * write again under the same id when it cannot know whether the first try took effect, and a
 * head that finds the id among its recent writes answers for the first try instead of applying
 * it twice. {@link #NONE} marks a write with no id (read back from a file after a restart).
 */
public record WriteId(long writer, long request) {
  public static final WriteId NONE = new WriteId(0, 0);

  public boolean isNone() {
    return writer == 0 && request == 0;
  }

  /** Appends the two numbers to {@code payload}. */
  public Frame.Payload addTo(Frame.Payload payload) {
    return payload.addLong(writer).addLong(request);
  }

  /**
   * Appends the two numbers and whether an earlier try of this write may have taken effect (it
   * failed on the way, not by refusal): a head that cannot tell whether such a write it does
   * not know was applied answers UNKNOWN_OUTCOME instead of applying it.
   */
  public Frame.Payload addTo(Frame.Payload payload, boolean earlierTryMayHaveApplied) {
    return addTo(payload).addLong(earlierTryMayHaveApplied ? 1 : 0);
  }

  /** Reads the two numbers {@link #addTo} wrote. */
  public static WriteId next(Frame.Fields fields) throws MalformedFrameException {
    return new WriteId(fields.nextLong(), fields.nextLong());
  }
}

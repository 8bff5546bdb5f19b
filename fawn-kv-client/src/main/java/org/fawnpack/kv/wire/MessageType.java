package org.fawnpack.kv.wire;

/**
 * The frame types. Requests from clients and front-ends: GET (key), PUT (key, value, write
 * id, earlier try may have applied), DELETE (key, write id, the same); the {@link WriteId}
 * makes a retry answerable instead of applied twice. A front-end passes a write on to the
 * chain's head with one more field, the slice epoch under which it admitted the write (see
 * FENCE). Between the members of a chain: CHAIN_PUT and CHAIN_DELETE, which carry the head's
 * sequence number and the write id. Replies carry
 * the request's id: OK, VALUE, NOT_FOUND, REFUSED and ERROR, both with a message for a person:
 * REFUSED says the request was not applied anywhere (misrouted, a short chain, a bad key), so
 * a client may treat it as a definite failure; ERROR says it failed on the way and a write may
 * or may not have taken effect. STALE_RING: routed by another ring epoch, not applied.
 *
 * <p>Chain extension: a member copying an arc asks the arc's tail for ARC_SNAPSHOT, reads it
 * with ARC_CHUNK and ends with ARC_RELEASE; once it serves, its predecessor sends CHAIN_SYNC
 * after the writes it kept, which tells it that it holds everything its predecessor had.
 *
 * <p>These are the ids on the wire (constants, so that code can switch on a frame's type);
 * {@link Verb} has one row per verb with what else is known of it.
 */
public final class MessageType {
  public static final byte GET = 1;
  public static final byte PUT = 2;
  public static final byte DELETE = 3;
  public static final byte CHAIN_PUT = 4;
  public static final byte CHAIN_DELETE = 5;
  public static final byte ARC_SNAPSHOT = 6;
  public static final byte ARC_CHUNK = 7;
  public static final byte ARC_RELEASE = 8;
  public static final byte CHAIN_SYNC = 9;
  /** A back-end's figures (for {@code fawn kv stats}): answered VALUE. */
  public static final byte STATS = 10;
  /**
   * (arc end, copier id): the last sequence number a chain member holds of an arc that copier
   * is copying, answered VALUE; a copier compares its head's and its tail's to copy only once
   * no write is on its way down the chain.
   */
  public static final byte ARC_LAST = 11;
  /** A client asks a front-end which front-end serves which keys: answered SLICE_MAP. */
  public static final byte SLICES = 12;
  /**
   * A page of a range scan, asked of the tail of the arc the range lies in: (scan id, range
   * start exclusive, range end inclusive, after sequence, page bytes, key prefix, cut),
   * answered SCAN_PAGE. The tail reads a view of its file taken when the scan id first came
   * (kept between pages); a page goes on after the sequence number the last one ended at, so a
   * reader moves to another replica without losing or repeating an entry. With a cut above 0,
   * any member holding it answers, with the entries as of that sequence number.
   */
  public static final byte SCAN = 13;
  /**
   * A front-end about to serve keys another front-end may have served asks every back-end to
   * refuse, from now on, writes admitted under a slice epoch older than (slice epoch), and to
   * answer OK once every write it took before is committed at its arc's tail: then no write a
   * former owner admitted can land behind the new owner's cache. The header carries the
   * sender's ring epoch, which must be the back-end's.
   */
  public static final byte FENCE = 14;
  /**
   * A bulk load's file for one arc, in pieces, to every member of the arc's chain (job, arc
   * end, offset, bytes, total length or -1 before the last piece, CRC32C of the whole file):
   * staged beside the arc's file, forced, not visible. Answered OK.
   */
  public static final byte BULK_STAGE = 15;
  /**
   * (job, arc end) to the arc's head once the load is committed: the head absorbs its staged
   * file after its last write and sends CHAIN_ATTACH down the chain; OK once the tail has it.
   */
  public static final byte BULK_APPLY = 16;
  /**
   * Between chain members, in sequence order with CHAIN_PUT: (arc end, job, the base the head
   * absorbed after, the last number the load took, write id). The member absorbs its own
   * staged copy when its last write is the base; one without it answers BEHIND, and its
   * predecessor sends the loaded records as ordinary writes.
   */
  public static final byte CHAIN_ATTACH = 17;
  /**
   * (job, arc ends) once the load committed, to every live back-end, then every registered
   * front-end: a back-end pauses the loaded arcs; a front-end empties its cache (the loaded
   * arcs' tails, gated first, answer no get until the load is visible everywhere, so nothing
   * older is cached again meanwhile).
   */
  public static final byte BULK_GATE = 18;
  /**
   * (job) to every back-end once every arc applied the load (or to drop a load that did not
   * commit): staged files go, and the loaded arcs serve again. Best effort: a back-end that
   * misses it opens its gates on its own check.
   */
  public static final byte BULK_RELEASE = 19;
  /**
   * (key) a client's get sent straight to the tail by its own ring, not through a front-end:
   * answered as GET is only while the tail's read lease is held (see
   * {@code backend.TailLease}); otherwise REFUSED, and the client asks a front-end.
   */
  public static final byte DIRECT_GET = 20;

  public static final byte OK = 64;
  public static final byte VALUE = 65;
  public static final byte NOT_FOUND = 66;
  public static final byte ERROR = 67;
  public static final byte REFUSED = 68;
  /**
   * The request was routed by another ring epoch than the receiver's (whose epoch the reply's
   * header carries); not applied. The sender reroutes once its ring and the receiver's agree.
   */
  public static final byte STALE_RING = 69;
  /**
   * A chain member lacks writes before the one it was sent (a CHAIN_PUT or CHAIN_DELETE beyond
   * its next sequence number, or a CHAIN_SYNC beyond its last); not applied. Payload: a
   * message, then the next sequence number it expects, from which the sender resends.
   */
  public static final byte BEHIND = 70;
  /**
   * A retried write whose id the head does not know, after a try whose outcome the client does
   * not know, at a head that cannot tell whether that try took effect (it holds the arc's file
   * since a restart or a split, or copied it from a member that could not tell): not applied
   * now, and the write's outcome is unknown. The client stops retrying it.
   */
  public static final byte UNKNOWN_OUTCOME = 71;
  /** A front-end's slice map ({@code SliceCodec}'s text) as the payload. */
  public static final byte SLICE_MAP = 72;
  /**
   * The key is served by another front-end; not applied. Payload: a message, then the
   * answering front-end's slice map, by which the client sends it again.
   */
  public static final byte WRONG_SLICE = 73;
  /** A page of a SCAN: see {@code org.fawnpack.kv.scan.ScanPage} for its fields. */
  public static final byte SCAN_PAGE = 74;
  /**
   * A write admitted by its front-end under a slice epoch older than the receiving head's
   * fence (see FENCE): not applied. Payload: a message, then the fence. The front-end admits it
   * again by its current map, or says it no longer serves the key.
   */
  public static final byte FENCED = 75;
  /**
   * A request for a key whose arc an operator declared lost (every copy gone): refused for
   * good, so a client fails it at once instead of retrying. Payload: a message.
   */
  public static final byte LOST = 76;

  private MessageType() {}

  /** The verb's name ({@link Verb#nameOf}): "type N" for one this version does not know. */
  public static String name(byte type) {
    return Verb.nameOf(type);
  }

  /** An ERROR reply to {@code request}: failed on the way; a write may have taken effect. */
  public static Frame error(Frame request, String message) {
    return withMessage(ERROR, request, message);
  }

  /** A REFUSED reply to {@code request}: not applied anywhere. */
  public static Frame refused(Frame request, String message) {
    return withMessage(REFUSED, request, message);
  }

  /** A LOST reply to {@code request}: its key's arc is gone; not applied, never will be. */
  public static Frame lost(Frame request, String message) {
    return withMessage(LOST, request, message);
  }

  /**
   * The text of a REFUSED, LOST or ERROR reply (what {@link #refused} and {@link #error} wrote), or
   * a note saying it has none.
   */
  public static String messageOf(Frame reply) {
    try {
      Frame.Fields fields = reply.fields();
      return new String(fields.nextBytes(reply.payload().length, "the message"),
          java.nio.charset.StandardCharsets.UTF_8);
    } catch (MalformedFrameException e) {
      return "(" + name(reply.type()) + " without a message: " + e.getMessage() + ")";
    }
  }

  /** A BEHIND reply to {@code request}: the receiver expects {@code nextExpected} next. */
  public static Frame behind(Frame request, String message, long nextExpected) {
    return withMessageAndNumber(BEHIND, request, message, nextExpected);
  }

  /** The sequence number a BEHIND reply says its sender expects next. */
  public static long nextExpectedOf(Frame behind) throws MalformedFrameException {
    return numberAfterMessage(behind);
  }

  /** A FENCED reply to {@code request}: not applied; this head refuses below {@code fence}. */
  public static Frame fenced(Frame request, String message, long fence) {
    return withMessageAndNumber(FENCED, request, message, fence);
  }

  /** The fence a FENCED reply names. */
  public static long fenceOf(Frame fenced) throws MalformedFrameException {
    return numberAfterMessage(fenced);
  }

  private static Frame withMessageAndNumber(byte type, Frame request, String message,
      long number) {
    return new Frame(type, request.requestId(), request.epoch(), new Frame.Payload()
        .addBytes(message.getBytes(java.nio.charset.StandardCharsets.UTF_8))
        .addLong(number).toBytes());
  }

  private static long numberAfterMessage(Frame reply) throws MalformedFrameException {
    Frame.Fields fields = reply.fields();
    fields.nextBytes(reply.payload().length, "the message");
    long number = fields.nextLong();
    fields.end();
    return number;
  }

  /** An UNKNOWN_OUTCOME reply to {@code request}: not applied now; an earlier try unknown. */
  public static Frame unknownOutcome(Frame request, String message) {
    return withMessage(UNKNOWN_OUTCOME, request, message);
  }

  private static Frame withMessage(byte type, Frame request, String message) {
    return new Frame(type, request.requestId(), request.epoch(),
        new Frame.Payload().addBytes(message.getBytes(java.nio.charset.StandardCharsets.UTF_8))
            .toBytes());
  }

  /** A reply of {@code type} to {@code request} with {@code payload}. */
  public static Frame reply(Frame request, byte type, byte[] payload) {
    return new Frame(type, request.requestId(), request.epoch(), payload);
  }
}

package org.fawnpack.kv.wire;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Every verb of the protocol, one row each: its id on the wire ({@link MessageType}'s constant,
 * where its fields are described), whether it asks or answers, which nodes answer it, and
 * whether a back-end refuses it when it was routed by another ring epoch than its own, and how
 * long its sender waits for the answer (its {@link Wait timeout class}, a duration per class in
 * {@link Timeouts}). The message records that lay out each verb's payload are named on its row. Receivers look a
 * frame's type up here ({@link #of}); a type with no row is a newer peer's, answered REFUSED
 * by name.
 */
public enum Verb {
  /** {@link GetRequest}: answered VALUE or NOT_FOUND ({@link GetRequest#answer}). */
  GET(MessageType.GET, Kind.REQUEST, true, Wait.CLIENT_TRY, Node.BACKEND, Node.FRONTEND),
  /** {@link WriteRequest} (at a head, {@link AdmittedWrite}). */
  PUT(MessageType.PUT, Kind.REQUEST, true, Wait.CLIENT_TRY, Node.BACKEND, Node.FRONTEND),
  /** {@link WriteRequest} (at a head, {@link AdmittedWrite}). */
  DELETE(MessageType.DELETE, Kind.REQUEST, true, Wait.CLIENT_TRY, Node.BACKEND, Node.FRONTEND),
  /** {@link ChainWrite}; its chain epoch is checked under the arc's lock. */
  CHAIN_PUT(MessageType.CHAIN_PUT, Kind.REQUEST, false, Wait.RESENT, Node.BACKEND),
  /** {@link ChainWrite}; its chain epoch is checked under the arc's lock. */
  CHAIN_DELETE(MessageType.CHAIN_DELETE, Kind.REQUEST, false, Wait.RESENT, Node.BACKEND),
  /** {@code copy.ArcQuestion}, answered {@code copy.ArcSnapshot}. */
  ARC_SNAPSHOT(MessageType.ARC_SNAPSHOT, Kind.REQUEST, true, Wait.TRANSFER, Node.BACKEND),
  /** {@code copy.ArcChunk}, answered with its piece. */
  ARC_CHUNK(MessageType.ARC_CHUNK, Kind.REQUEST, false, Wait.TRANSFER, Node.BACKEND),
  /** {@code copy.ArcRelease}. */
  ARC_RELEASE(MessageType.ARC_RELEASE, Kind.REQUEST, false, Wait.ANSWER, Node.BACKEND),
  /** {@link ChainSync}. */
  CHAIN_SYNC(MessageType.CHAIN_SYNC, Kind.REQUEST, false, Wait.RESENT, Node.BACKEND),
  /** No payload; answered VALUE with a {@link StatsReport} (a front-end's: its own). */
  STATS(MessageType.STATS, Kind.REQUEST, false, Wait.ANSWER, Node.BACKEND, Node.FRONTEND),
  /** {@code wire.ArcLast}, answered VALUE with a sequence number (or REFUSED after its wait). */
  ARC_LAST(MessageType.ARC_LAST, Kind.REQUEST, true, Wait.LONG_POLL, Node.BACKEND),
  /** No payload; answered SLICE_MAP. */
  SLICES(MessageType.SLICES, Kind.REQUEST, false, Wait.ANSWER, Node.FRONTEND),
  /** {@code scan.ScanRequest}, answered SCAN_PAGE. */
  SCAN(MessageType.SCAN, Kind.REQUEST, true, Wait.TRANSFER, Node.BACKEND),
  /** {@link Fence}; held while older writes drain ({@link Fence#DRAIN_LIMIT_MS}). */
  FENCE(MessageType.FENCE, Kind.REQUEST, true, Wait.LONG_POLL, Node.BACKEND),
  /** {@code bulk.BulkMessages.Stage}. */
  BULK_STAGE(MessageType.BULK_STAGE, Kind.REQUEST, false, Wait.TRANSFER, Node.BACKEND),
  /** {@code bulk.BulkMessages.Apply}. */
  BULK_APPLY(MessageType.BULK_APPLY, Kind.REQUEST, false, Wait.TRANSFER, Node.BACKEND),
  /** {@link ChainAttach}. */
  CHAIN_ATTACH(MessageType.CHAIN_ATTACH, Kind.REQUEST, false, Wait.RESENT, Node.BACKEND),
  /** {@code bulk.BulkMessages.Gate}. */
  BULK_GATE(MessageType.BULK_GATE, Kind.REQUEST, false, Wait.ANSWER, Node.BACKEND, Node.FRONTEND),
  /** {@code bulk.BulkMessages.Release}. */
  BULK_RELEASE(MessageType.BULK_RELEASE, Kind.REQUEST, false, Wait.ANSWER, Node.BACKEND),
  /** {@link GetRequest}, to a tail by the client's own ring. */
  DIRECT_GET(MessageType.DIRECT_GET, Kind.REQUEST, true, Wait.CLIENT_TRY, Node.BACKEND),

  OK(MessageType.OK, Kind.REPLY, false, Wait.NONE),
  VALUE(MessageType.VALUE, Kind.REPLY, false, Wait.NONE),
  NOT_FOUND(MessageType.NOT_FOUND, Kind.REPLY, false, Wait.NONE),
  /** A message ({@link MessageType#messageOf}). */
  ERROR(MessageType.ERROR, Kind.REPLY, false, Wait.NONE),
  /** A message ({@link MessageType#messageOf}). */
  REFUSED(MessageType.REFUSED, Kind.REPLY, false, Wait.NONE),
  /** No payload; the header carries the receiver's epoch. */
  STALE_RING(MessageType.STALE_RING, Kind.REPLY, false, Wait.NONE),
  /** A message and a number ({@link MessageType#nextExpectedOf}). */
  BEHIND(MessageType.BEHIND, Kind.REPLY, false, Wait.NONE),
  /** A message ({@link MessageType#messageOf}). */
  UNKNOWN_OUTCOME(MessageType.UNKNOWN_OUTCOME, Kind.REPLY, false, Wait.NONE),
  /** {@code slice.SliceCodec}'s text. */
  SLICE_MAP(MessageType.SLICE_MAP, Kind.REPLY, false, Wait.NONE),
  /** {@code slice.WrongSlice}. */
  WRONG_SLICE(MessageType.WRONG_SLICE, Kind.REPLY, false, Wait.NONE),
  /** {@code scan.ScanPage}. */
  SCAN_PAGE(MessageType.SCAN_PAGE, Kind.REPLY, false, Wait.NONE),
  /** A message and a number ({@link MessageType#fenceOf}). */
  FENCED(MessageType.FENCED, Kind.REPLY, false, Wait.NONE),
  /** A message ({@link MessageType#messageOf}). */
  LOST(MessageType.LOST, Kind.REPLY, false, Wait.NONE);

  /** Whether a verb asks (ids below 64) or answers (64 and up). */
  public enum Kind { REQUEST, REPLY }

  /** The nodes that answer requests. */
  public enum Node { BACKEND, FRONTEND }

  /**
   * How long a sender waits for a request's answer before it takes the peer as not answering
   * (and tries again, another member, or gives up): one class per kind of work the answer
   * costs, one duration per class ({@link Timeouts}, set by keys).
   */
  public enum Wait {
    /** A client's try ({@code fawn.kv.client.try-timeout-ms}): one read or one chain write. */
    CLIENT_TRY,
    /**
     * Answered from memory, or once the writes before it are committed (a fence): {@code
     * fawn.kv.timeout.answer-ms}.
     */
    ANSWER,
    /**
     * A megabyte on the wire or a pass over a file (a copy's piece or snapshot, a scan page, a
     * bulk load's staging or applying): {@code fawn.kv.timeout.transfer-ms}.
     */
    TRANSFER,
    /** Answered when something happens or its own wait (carried in the request) ends, + ANSWER. */
    LONG_POLL,
    /** A chain's message: not timed, sent again until its successor answers or the chain moves. */
    RESENT,
    /** A reply: nothing waits for an answer to it. */
    NONE
  }

  private static final Verb[] BY_ID = new Verb[256];

  static {
    for (Verb v : values()) {
      if (BY_ID[v.id & 0xff] != null) {
        throw new ExceptionInInitializerError("verbs " + BY_ID[v.id & 0xff] + " and " + v
            + " share id " + (v.id & 0xff));
      }
      BY_ID[v.id & 0xff] = v;
    }
  }

  private final byte id;
  private final Kind kind;
  private final boolean ringEpochChecked;
  private final Wait wait;
  private final Set<Node> answeredBy;

  Verb(byte id, Kind kind, boolean ringEpochChecked, Wait wait, Node... answeredBy) {
    this.id = id;
    this.kind = kind;
    this.ringEpochChecked = ringEpochChecked;
    this.wait = wait;
    this.answeredBy = answeredBy.length == 0 ? Set.of() : Set.copyOf(EnumSet.of(answeredBy[0],
        answeredBy));
  }

  /** The verb of a frame's type, or null for a type this version does not know. */
  public static Verb of(byte type) {
    return BY_ID[type & 0xff];
  }

  /** A verb's name, or "type N" for a type this version does not know. */
  public static String nameOf(byte type) {
    Verb v = of(type);
    return v == null ? "type " + (type & 0xff) : v.name();
  }

  /** The requests {@code node} answers, in id order (for its refusal of the others). */
  public static List<Verb> requestsOf(Node node) {
    List<Verb> verbs = new ArrayList<>();
    for (Verb v : values()) {
      if (v.answeredBy.contains(node)) {
        verbs.add(v);
      }
    }
    return verbs;
  }

  public byte id() {
    return id;
  }

  public Kind kind() {
    return kind;
  }

  /**
   * Whether a back-end answers this request STALE_RING, applying nothing, when its header's
   * epoch is not the back-end's ring epoch: the requests routed by a ring (and a copier's
   * questions, which must not be answered by a source still splitting its files for a join).
   * Chain messages are checked against their arc's chain epoch instead, under its lock.
   */
  public boolean ringEpochChecked() {
    return ringEpochChecked;
  }

  /** How long a sender waits for this request's answer: its timeout class. */
  public Wait waitClass() {
    return wait;
  }

  /** Whether {@code node} answers this request. */
  public boolean isAnsweredBy(Node node) {
    return answeredBy.contains(node);
  }
}

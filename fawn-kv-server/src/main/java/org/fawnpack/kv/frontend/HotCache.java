package org.fawnpack.kv.frontend;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.fawnpack.kv.wire.MessageType;

/**
 * A front-end's cache of hot keys' committed values (Caffeine's W-TinyLFU), filled only from
 * tails' answers to gets. A cached value must never be older than one a client has already
 * been shown, so every event on a key's stripe (a write starting or ending, a get answered)
 * bumps the stripe's counter, and a get's answer is cached only if nothing happened on its
 * stripe between sending the get and taking the answer, and no write was on its way. An answer
 * that differs from the value cached meanwhile drops the key: the two reads overlapped a
 * change the front-end did not see pass. Writes drop their key when they start and again when
 * they end.
 *
 * <p>A write whose outcome is unknown (the head applied it, its forward broke) may land at the
 * tail any time later, when the head resends it to a new successor; a value read before that
 * and cached would then be older than what the tail serves, and a client reading the tail
 * straight (or through another front-end after a slice move) could see the new value before
 * this cache shows the old one. So such a key is <em>unsettled</em>: never cached until a later
 * write of it through this front-end is acknowledged (the chain applies writes in the head's
 * order, so that write comes after the unknown one at every member, or the unknown one is gone
 * with its head). Past {@link #MAX_UNSETTLED} unsettled keys in all, their stripes stay closed to
 * fills instead of the keys being remembered one by one (safe, and logged once).
 */
final class HotCache {
  /** Stripes of the guard: more means fewer fills lost to unrelated keys' traffic. */
  static final int STRIPES = 4096;

  /** A cached answer as the tail gave it: VALUE with its payload, or NOT_FOUND. */
  record Entry(byte type, byte[] payload) {}

  /** A user key with its hash, taken once per request: lookup, stamp and fill share it. */
  record Key(byte[] bytes, int hash) {
    static Key of(byte[] bytes) {
      return new Key(bytes, Arrays.hashCode(bytes));
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && k.hash == hash && Arrays.equals(k.bytes, bytes);
    }

    @Override
    public int hashCode() {
      return hash;
    }
  }

  /** Unsettled keys remembered one by one; more close their whole stripes to fills. */
  static final int MAX_UNSETTLED = 65_536;

  /** How a write ended, for the cache. */
  enum WriteOutcome {
    /** Acknowledged by the chain: any earlier unknown write of the key is settled. */
    ACKNOWLEDGED,
    /** Certainly applied nowhere (refused, fenced, not sent). */
    NOT_APPLIED,
    /** Perhaps applied and not yet at the tail: it may land later. */
    UNKNOWN;

    /**
     * What a write's answer says about where it landed: an error (a broken link, a head that
     * applied it and could not forward it) leaves it unknown; a refusal or a fence, nowhere.
     */
    static WriteOutcome of(byte answerType) {
      return switch (answerType) {
        case MessageType.OK, MessageType.NOT_FOUND -> ACKNOWLEDGED;
        case MessageType.REFUSED, MessageType.FENCED, MessageType.WRONG_SLICE,
            MessageType.STALE_RING, MessageType.LOST -> NOT_APPLIED;
        default -> UNKNOWN;
      };
    }
  }

  /** Guarded by itself. */
  private static final class Stripe {
    long events;
    int writesOnTheirWay;
    java.util.Set<Key> unsettled;
    /** Set when an unsettled key could not be remembered: no fill, ever, on this stripe. */
    boolean closed;

    boolean mayFill(Key key) {
      return writesOnTheirWay == 0 && !closed && (unsettled == null || !unsettled.contains(key));
    }
  }

  private final Cache<Key, Entry> cache;
  private final Stripe[] stripes = new Stripe[STRIPES];
  private final AtomicLong hits = new AtomicLong();
  private final AtomicLong misses = new AtomicLong();
  private final AtomicLong unsettled = new AtomicLong();
  private final java.util.concurrent.atomic.AtomicBoolean closedLogged =
      new java.util.concurrent.atomic.AtomicBoolean();

  /** A cache of at most {@code entries} keys; 0: nothing is cached. */
  HotCache(long entries) {
    if (entries < 0) {
      throw new IllegalArgumentException("cache entries must not be negative: " + entries);
    }
    // Evictions run on the caller's thread: no pool thread, and the bound holds at once.
    this.cache = Caffeine.newBuilder().maximumSize(entries).executor(Runnable::run).build();
    for (int i = 0; i < STRIPES; i++) {
      stripes[i] = new Stripe();
    }
  }

  /** The cached answer for {@code key}, or null (counted as a hit or a miss). */
  Entry lookup(Key key) {
    Entry e = cache.getIfPresent(key);
    (e == null ? misses : hits).incrementAndGet();
    return e;
  }

  /** Taken as a get leaves for the tail; -1 when a write to the stripe is on its way. */
  long stampBeforeGet(Key key) {
    Stripe s = stripeOf(key);
    synchronized (s) {
      return s.mayFill(key) ? s.events : -1;
    }
  }

  /** The tail answered {@code answer} to a get sent at {@code stamp}; call before relaying. */
  void answered(Key k, long stamp, Entry answer, boolean mayCache) {
    Stripe s = stripeOf(k);
    synchronized (s) {
      Entry cached = cache.getIfPresent(k);
      if (cached != null && !sameAnswer(cached, answer)) {
        cache.invalidate(k);
      } else if (cached == null && mayCache && stamp == s.events && maximum() > 0
          && s.mayFill(k)) {
        cache.put(k, answer);
      }
      s.events++;
    }
  }

  /** A put or delete of {@code key} is about to be forwarded. */
  void writeStarting(Key key) {
    Stripe s = stripeOf(key);
    synchronized (s) {
      s.writesOnTheirWay++;
      s.events++;
      cache.invalidate(key);
    }
  }

  /** A write of {@code key} was answered or failed, with {@code outcome}. */
  void writeEnded(Key key, WriteOutcome outcome) {
    Stripe s = stripeOf(key);
    synchronized (s) {
      s.writesOnTheirWay--;
      s.events++;
      cache.invalidate(key);
      if (outcome == WriteOutcome.ACKNOWLEDGED && s.unsettled != null
          && s.unsettled.remove(key)) {
        unsettled.decrementAndGet();
      } else if (outcome == WriteOutcome.UNKNOWN && !s.closed) {
        if (s.unsettled == null) {
          s.unsettled = new java.util.HashSet<>();
        }
        if (s.unsettled.contains(key)) {
          return;
        }
        if (unsettled.incrementAndGet() <= MAX_UNSETTLED) {
          s.unsettled.add(key);
        } else {
          unsettled.decrementAndGet();
          s.closed = true;
          if (closedLogged.compareAndSet(false, true)) {
            org.slf4j.LoggerFactory.getLogger(HotCache.class).warn("more than {} keys have"
                + " writes of unknown outcome: their cache stripes take no more values until"
                + " the front-end restarts", MAX_UNSETTLED);
          }
        }
      }
    }
  }

  /** Keys remembered as unsettled now (see the class comment). */
  long unsettledKeys() {
    return unsettled.get();
  }

  /** Drops every key {@code keep} says no. */
  void retainOnly(Predicate<byte[]> keep) {
    cache.asMap().keySet().removeIf(k -> !keep.test(k.bytes()));
  }

  void clear() {
    cache.invalidateAll();
  }

  /**
   * Empties the cache, and no get on its way now may fill it (its stripe's count moves on):
   * what was read before may be overwritten by a change that passes no front-end.
   */
  void forgetAll() {
    for (Stripe s : stripes) {
      synchronized (s) {
        s.events++;
      }
    }
    cache.invalidateAll();
  }

  /** Holds at most {@code entries} keys from now on. */
  void resize(long entries) {
    cache.policy().eviction().ifPresent(e -> e.setMaximum(entries));
  }

  long maximum() {
    return cache.policy().eviction().map(e -> e.getMaximum()).orElse(0L);
  }

  long size() {
    return cache.estimatedSize();
  }

  long hits() {
    return hits.get();
  }

  long misses() {
    return misses.get();
  }

  private Stripe stripeOf(Key key) {
    return stripes[Math.floorMod(key.hash() * 0x9e3779b9, STRIPES)];
  }

  private static boolean sameAnswer(Entry a, Entry b) {
    return a.type() == b.type() && Arrays.equals(a.payload(), b.payload());
  }
}

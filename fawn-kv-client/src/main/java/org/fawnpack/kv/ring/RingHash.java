package org.fawnpack.kv.ring;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Positions on the ring: a keyed 160-bit hash (HMAC-SHA1 under the cluster's ring key) of a
 * user key or of a virtual node's name. The ring orders positions by the digest's first 64 bits
 * as an unsigned number, the same positions FAWN-DS splits its files by
 * ({@code RingPositions}); the rest of the digest is not needed for placement, because the
 * store keeps each user key whole (two keys never share a record, whatever their digests).
 *
 * <p>The key makes placement unpredictable to clients that do not hold it, so nobody can pick
 * keys that all land on one back-end. It is chosen once per cluster and never changes: every
 * position depends on it.
 */
public final class RingHash {
  private static final String ALGORITHM = "HmacSHA1";

  private final SecretKeySpec ringKey;
  /**
   * A Mac is not thread-safe, and making one (provider lookup, key set-up) cost more than the
   * hash itself on every request's path: one per thread, reset by each {@code doFinal}.
   */
  private final ThreadLocal<Mac> macs = ThreadLocal.withInitial(this::newMac);

  public RingHash(byte[] ringKey) {
    if (ringKey.length < 16) {
      throw new IllegalArgumentException("the ring key must have at least 16 bytes, has "
          + ringKey.length);
    }
    this.ringKey = new SecretKeySpec(ringKey.clone(), ALGORITHM);
  }

  /**
   * The ring key itself, for a job whose tasks place keys as the back-ends do (it travels in
   * the job's credentials, never in its configuration).
   */
  public byte[] keyBytes() {
    return ringKey.getEncoded();
  }

  private Mac newMac() {
    try {
      Mac mac = Mac.getInstance(ALGORITHM);
      mac.init(ringKey);
      return mac;
    } catch (NoSuchAlgorithmException | InvalidKeyException e) {
      throw new IllegalStateException("HmacSHA1 is part of every Java runtime", e);
    }
  }

  /** The 160-bit digest of {@code bytes}. */
  public byte[] digest(byte[] bytes) {
    return macs.get().doFinal(bytes);
  }

  /** The ring position of a user key. */
  public long position(byte[] userKey) {
    return ByteBuffer.wrap(digest(userKey)).getLong();
  }

  /** The ring position of virtual node {@code index} of back-end {@code backendId}. */
  public long virtualNodePosition(String backendId, int index) {
    return position((backendId + "#" + index).getBytes(StandardCharsets.UTF_8));
  }
}

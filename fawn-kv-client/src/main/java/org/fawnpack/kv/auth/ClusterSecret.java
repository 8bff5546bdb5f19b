package org.fawnpack.kv.auth;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Set;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.apache.yetus.audience.InterfaceAudience;
import org.apache.yetus.audience.InterfaceStability;

/**
 * The secret every node and client of one cluster shares; connections prove they know it
 * (the wire's {@code Handshake}) and are refused otherwise. Kept in a file only its owner may
 * read or write: a file others can read is refused, since anyone who reads it can join the
 * cluster. With TLS on ({@link #withTls}) it also carries the node's {@link TlsCredentials},
 * so that every connection made or served with it runs inside TLS: what a node proves to its
 * peers travels as one object.
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class ClusterSecret {
  private static final int MIN_BYTES = 16;

  private final byte[] key;
  private final TlsCredentials tls;

  private ClusterSecret(byte[] key) {
    this(key, null);
  }

  private ClusterSecret(byte[] key, TlsCredentials tls) {
    if (key.length < MIN_BYTES) {
      throw new IllegalArgumentException("a cluster secret has at least " + MIN_BYTES
          + " bytes, this one " + key.length);
    }
    this.key = key.clone();
    this.tls = tls;
  }

  /** This secret, with every connection made or served with it inside TLS under {@code tls}. */
  public ClusterSecret withTls(TlsCredentials tls) {
    return new ClusterSecret(key, java.util.Objects.requireNonNull(tls, "TLS credentials"));
  }

  /** The TLS credentials connections use, or empty when TLS is off. */
  public java.util.Optional<TlsCredentials> tls() {
    return java.util.Optional.ofNullable(tls);
  }

  /** A fresh random secret (32 bytes), for tests and for a new cluster's file. */
  public static ClusterSecret generate() {
    byte[] key = new byte[32];
    new SecureRandom().nextBytes(key);
    return new ClusterSecret(key);
  }

  /**
   * Reads the secret in {@code file}.
   *
   * @throws IOException naming the file when it is missing, readable or writable by anyone
   *     but its owner, or shorter than 16 bytes
   */
  public static ClusterSecret load(Path file) throws IOException {
    if (!Files.isRegularFile(file)) {
      throw new IOException("cluster secret file " + file + " does not exist (./fawn kv local"
          + " makes one; copy it to every node with mode 600)");
    }
    Set<PosixFilePermission> mode = Files.getPosixFilePermissions(file);
    for (PosixFilePermission p : mode) {
      if (!p.name().startsWith("OWNER_")) {
        throw new IOException("cluster secret file " + file + " has mode "
            + PosixFilePermissions.toString(mode) + ": others may read or change it;"
            + " chmod 600 " + file);
      }
    }
    byte[] bytes = Files.readAllBytes(file);
    try {
      return new ClusterSecret(bytes);
    } catch (IllegalArgumentException e) {
      throw new IOException("cluster secret file " + file + ": " + e.getMessage(), e);
    }
  }

  /**
   * A secret passed in memory, as a MapReduce job's credentials carry the one the submitter read
   * from its file ({@link #load} checked the file).
   *
   * @throws IllegalArgumentException when it is shorter than 16 bytes
   */
  public static ClusterSecret fromBytes(byte[] key) {
    return new ClusterSecret(key);
  }

  /** Loads {@code file}, or makes it (owner-only, a fresh secret in hex) when it is missing. */
  public static ClusterSecret loadOrCreate(Path file) throws IOException {
    if (!Files.exists(file)) {
      Path dir = file.toAbsolutePath().getParent();
      Files.createDirectories(dir);
      Path temp = Files.createTempFile(dir, ".secret", ".tmp",
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      byte[] raw = new byte[32];
      new SecureRandom().nextBytes(raw);
      Files.write(temp, HexFormat.of().formatHex(raw).getBytes(StandardCharsets.US_ASCII));
      try {
        Files.move(temp, file); // not replacing: a secret made meanwhile by another wins
      } catch (java.nio.file.FileAlreadyExistsException e) {
        Files.delete(temp);
      }
    }
    return load(file);
  }

  /**
   * HMAC-SHA256 under the secret over {@code parts}, each preceded by its length so that no
   * two different part lists give one input. The secret itself never leaves this class.
   */
  public byte[] hmacSha256(byte[]... parts) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      for (byte[] part : parts) {
        mac.update(ByteBuffer.allocate(4).putInt(part.length).array());
        mac.update(part);
      }
      return mac.doFinal();
    } catch (NoSuchAlgorithmException | InvalidKeyException e) {
      throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
    }
  }
}

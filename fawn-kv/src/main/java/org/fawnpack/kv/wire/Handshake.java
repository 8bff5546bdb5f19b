package org.fawnpack.kv.wire;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import org.fawnpack.kv.auth.ClusterSecret;

/**
 * Mutual proof of the cluster secret when a connection opens, before any request: the server
 * sends a random challenge, the client answers with its own random nonce and an HMAC-SHA256
 * over both, and the server answers with an HMAC of its own, so each side knows the other holds
 * the secret and nothing replayed from an earlier connection passes. The secret never travels.
 * Either side that sees a wrong proof closes the connection.
 */
public final class Handshake {
  static final byte CHALLENGE = 90;
  static final byte RESPONSE = 91;
  static final byte ACCEPTED = 92;
  private static final int NONCE_BYTES = 32;
  private static final int MAX_FRAME_BYTES = 256;
  private static final SecureRandom RANDOM = new SecureRandom();

  private Handshake() {}

  /** The serving side; throws when the peer does not prove the secret. */
  public static void serve(DataInputStream in, DataOutputStream out, ClusterSecret secret)
      throws IOException {
    byte[] serverNonce = nonce();
    send(out, CHALLENGE, serverNonce);
    Frame response = receive(in, RESPONSE, "its answer to the challenge");
    Frame.Fields fields = response.fields();
    byte[] clientNonce = fields.nextBytes(NONCE_BYTES, "the client's nonce");
    byte[] proof = fields.nextBytes(64, "the client's proof");
    fields.end();
    if (clientNonce.length != NONCE_BYTES
        || !MessageDigest.isEqual(proof, mac(secret, "client", serverNonce, clientNonce))) {
      throw new AuthenticationException("the peer did not prove the cluster secret");
    }
    send(out, ACCEPTED, new Frame.Payload().addBytes(mac(secret, "server", serverNonce,
        clientNonce)).toBytes());
  }

  /** The connecting side; throws when the server refuses us or does not prove the secret. */
  public static void connect(DataInputStream in, DataOutputStream out, ClusterSecret secret)
      throws IOException {
    Frame challenge = receive(in, CHALLENGE, "a challenge");
    byte[] serverNonce = challenge.payload();
    if (serverNonce.length != NONCE_BYTES) {
      throw new AuthenticationException("the challenge has " + serverNonce.length + " bytes");
    }
    byte[] clientNonce = nonce();
    send(out, RESPONSE, new Frame.Payload().addBytes(clientNonce)
        .addBytes(mac(secret, "client", serverNonce, clientNonce)).toBytes());
    Frame accepted;
    try {
      accepted = receive(in, ACCEPTED, "its acceptance");
    } catch (EOFException e) {
      throw new AuthenticationException("the server closed the connection: it does not share"
          + " this cluster secret");
    }
    Frame.Fields fields = accepted.fields();
    byte[] proof = fields.nextBytes(64, "the server's proof");
    fields.end();
    if (!MessageDigest.isEqual(proof, mac(secret, "server", serverNonce, clientNonce))) {
      throw new AuthenticationException("the server did not prove the cluster secret");
    }
  }

  private static byte[] nonce() {
    byte[] nonce = new byte[NONCE_BYTES];
    RANDOM.nextBytes(nonce);
    return nonce;
  }

  private static void send(DataOutputStream out, byte type, byte[] payload) throws IOException {
    new Frame(type, 0, 0, payload).writeTo(out);
    out.flush();
  }

  private static Frame receive(DataInputStream in, byte type, String what) throws IOException {
    Frame frame = Frame.readFrom(in, MAX_FRAME_BYTES);
    if (frame == null) {
      throw new EOFException("the connection closed before " + what);
    }
    if (frame.type() != type) {
      throw new AuthenticationException("expected " + what + ", got a frame of type "
          + (frame.type() & 0xff) + " (is the peer a FAWN-KV node of this version?)");
    }
    return frame;
  }

  private static byte[] mac(ClusterSecret secret, String role, byte[] serverNonce,
      byte[] clientNonce) {
    return secret.hmacSha256(role.getBytes(StandardCharsets.US_ASCII), serverNonce, clientNonce);
  }
}

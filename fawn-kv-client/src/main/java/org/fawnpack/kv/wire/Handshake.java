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
 *
 * <p>The steps are plain functions of frames, run by the event-loop handlers
 * ({@link ServerHandshake}, {@link ClientHandshake}) and by {@link #connect} on a blocking
 * socket.
 */
public final class Handshake {
  static final byte CHALLENGE = 90;
  static final byte RESPONSE = 91;
  static final byte ACCEPTED = 92;
  static final int NONCE_BYTES = 32;
  /** The largest frame either side reads before the handshake is done. */
  static final int MAX_FRAME_BYTES = 256;
  private static final SecureRandom RANDOM = new SecureRandom();

  private Handshake() {}

  /** The server's first frame: its nonce. */
  static Frame challenge(byte[] serverNonce) {
    return new Frame(CHALLENGE, 0, 0, serverNonce);
  }

  /**
   * The server's answer to the client's response: ACCEPTED with the server's own proof.
   *
   * @throws AuthenticationException when the frame is not a response proving the secret
   */
  static Frame accept(Frame response, byte[] serverNonce, ClusterSecret secret)
      throws IOException {
    expect(response, RESPONSE, "its answer to the challenge");
    Frame.Fields fields = response.fields();
    byte[] clientNonce = fields.nextBytes(NONCE_BYTES, "the client's nonce");
    byte[] proof = fields.nextBytes(64, "the client's proof");
    fields.end();
    if (clientNonce.length != NONCE_BYTES
        || !MessageDigest.isEqual(proof, mac(secret, "client", serverNonce, clientNonce))) {
      throw new AuthenticationException("the peer did not prove the cluster secret");
    }
    return new Frame(ACCEPTED, 0, 0, new Frame.Payload().addBytes(mac(secret, "server",
        serverNonce, clientNonce)).toBytes());
  }

  /** The client's response to {@code challenge}, proving the secret with {@code clientNonce}. */
  static Frame respond(Frame challenge, byte[] clientNonce, ClusterSecret secret)
      throws IOException {
    expect(challenge, CHALLENGE, "a challenge");
    byte[] serverNonce = challenge.payload();
    if (serverNonce.length != NONCE_BYTES) {
      throw new AuthenticationException("the challenge has " + serverNonce.length + " bytes");
    }
    return new Frame(RESPONSE, 0, 0, new Frame.Payload().addBytes(clientNonce)
        .addBytes(mac(secret, "client", serverNonce, clientNonce)).toBytes());
  }

  /** Checks the server's acceptance against the nonces both sides chose. */
  static void checkAccepted(Frame accepted, byte[] serverNonce, byte[] clientNonce,
      ClusterSecret secret) throws IOException {
    expect(accepted, ACCEPTED, "its acceptance");
    Frame.Fields fields = accepted.fields();
    byte[] proof = fields.nextBytes(64, "the server's proof");
    fields.end();
    if (!MessageDigest.isEqual(proof, mac(secret, "server", serverNonce, clientNonce))) {
      throw new AuthenticationException("the server did not prove the cluster secret");
    }
  }

  /** What a client is told when the server hangs up on its response. */
  static AuthenticationException refusedByServer() {
    return new AuthenticationException("the server closed the connection: it does not share"
        + " this cluster secret");
  }

  /** The connecting side on a blocking socket; throws when refused or the server is false. */
  public static void connect(DataInputStream in, DataOutputStream out, ClusterSecret secret)
      throws IOException {
    Frame challenge = receive(in, "a challenge");
    byte[] clientNonce = nonce();
    send(out, respond(challenge, clientNonce, secret));
    Frame accepted;
    try {
      accepted = receive(in, "its acceptance");
    } catch (EOFException e) {
      throw refusedByServer();
    }
    checkAccepted(accepted, challenge.payload(), clientNonce, secret);
  }

  static byte[] nonce() {
    byte[] nonce = new byte[NONCE_BYTES];
    RANDOM.nextBytes(nonce);
    return nonce;
  }

  private static void expect(Frame frame, byte type, String what) throws IOException {
    if (frame.type() != type) {
      throw new AuthenticationException("expected " + what + ", got a frame of type "
          + (frame.type() & 0xff) + " (is the peer a FAWN-KV node of this version?)");
    }
  }

  private static void send(DataOutputStream out, Frame frame) throws IOException {
    frame.writeTo(out);
    out.flush();
  }

  private static Frame receive(DataInputStream in, String what) throws IOException {
    Frame frame = Frame.readFrom(in, MAX_FRAME_BYTES);
    if (frame == null) {
      throw new EOFException("the connection closed before " + what);
    }
    return frame;
  }

  private static byte[] mac(ClusterSecret secret, String role, byte[] serverNonce,
      byte[] clientNonce) {
    return secret.hmacSha256(role.getBytes(StandardCharsets.US_ASCII), serverNonce, clientNonce);
  }
}

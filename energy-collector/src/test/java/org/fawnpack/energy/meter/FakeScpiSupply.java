package org.fawnpack.energy.meter;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A bench supply for tests: a real TCP server on loopback speaking SCPI lines. It answers each
 * query with the reply the test set for it, and, like a real instrument, says nothing to a query
 * it does not know. It can be told to answer everything with one fixed line (garbage), to stall,
 * or to close the connection on the next query. Every query it receives is recorded.
 */
final class FakeScpiSupply extends LoopbackTestServer {
  private enum Behaviour { ANSWER, FIXED_REPLY, STALL, CLOSE_ON_NEXT_QUERY }

  private final Map<String, String> replies = new ConcurrentHashMap<>();
  private final List<String> received = new CopyOnWriteArrayList<>();
  private volatile Behaviour behaviour = Behaviour.ANSWER;
  private volatile String fixedReply;

  FakeScpiSupply() throws IOException {
    super("fake-scpi");
  }

  /** Answer {@code query} with {@code reply} (sent with a trailing LF). */
  FakeScpiSupply answer(String query, String reply) {
    replies.put(query, reply);
    return this;
  }

  /** Answer every query with {@code line}, whatever it asked. */
  void replyToEverything(String line) {
    fixedReply = line;
    behaviour = Behaviour.FIXED_REPLY;
  }

  /** Read queries but never answer. */
  void stall() {
    behaviour = Behaviour.STALL;
  }

  /** Close the connection, unanswered, when the next query arrives; then answer normally. */
  void closeOnNextQuery() {
    behaviour = Behaviour.CLOSE_ON_NEXT_QUERY;
  }

  void answerNormally() {
    behaviour = Behaviour.ANSWER;
  }

  /** The queries received so far, in order, without line terminators. */
  List<String> received() {
    return List.copyOf(received);
  }

  @Override
  void serve(Socket client) throws IOException {
    BufferedReader in = new BufferedReader(
        new InputStreamReader(client.getInputStream(), StandardCharsets.US_ASCII));
    OutputStream out = client.getOutputStream();
    String query;
    while ((query = in.readLine()) != null) {
      received.add(query);
      String reply = replyTo(query, client);
      if (reply == null) {
        continue; // after a close, the next readLine fails and ends this loop
      }
      out.write((reply + "\n").getBytes(StandardCharsets.US_ASCII));
      out.flush();
    }
  }

  /** The reply line, or null for none (after closing the connection if so told). */
  private String replyTo(String query, Socket client) throws IOException {
    switch (behaviour) {
      case FIXED_REPLY:
        return fixedReply;
      case STALL:
        return null;
      case CLOSE_ON_NEXT_QUERY:
        behaviour = Behaviour.ANSWER;
        client.close();
        return null;
      default:
        return replies.get(query);
    }
  }
}

package org.fawnpack.benchmarks.ycsb;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Base64;

/**
 * One etcd member's v3 JSON gateway (etcd 3.4: {@code /v3/...}) over HTTP/1.1: keys and values
 * travel base64-encoded, 64-bit numbers as strings, and fields at their zero value (no
 * {@code kvs}, no {@code deleted}) are left out of answers. Reads are etcd's default,
 * linearizable ones. One instance per thread: its connection is reused call after call.
 */
final class EtcdGateway {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Base64.Encoder BASE64 = Base64.getEncoder();
  private static final Base64.Decoder UNBASE64 = Base64.getDecoder();

  private final URI endpoint;
  private final Duration deadline;
  private final HttpClient http;

  /** The member whose client URL is {@code endpoint}; each call must answer within deadline. */
  EtcdGateway(URI endpoint, Duration deadline) {
    this.endpoint = endpoint;
    this.deadline = deadline;
    // Calls are synchronous and one at a time: the client's own work runs on the calling and
    // selector threads instead of being handed to a pool, which took ~40 % less client CPU per
    // call here (etcd 3.4 on loopback).
    this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(deadline).executor(Runnable::run).build();
  }

  URI endpoint() {
    return endpoint;
  }

  /** The value stored under {@code key}, or null when there is none. */
  byte[] get(byte[] key) throws IOException {
    JsonNode kvs = call("/v3/kv/range", keyed(key)).path("kvs");
    if (kvs.isEmpty()) {
      return null;
    }
    return UNBASE64.decode(kvs.get(0).path("value").asText(""));
  }

  void put(byte[] key, byte[] value) throws IOException {
    call("/v3/kv/put", keyed(key).put("value", BASE64.encodeToString(value)));
  }

  /** Deletes {@code key}; whether there was one to delete. */
  boolean delete(byte[] key) throws IOException {
    return call("/v3/kv/deleterange", keyed(key)).path("deleted").asLong(0) > 0;
  }

  /** Whether the member answers {@code GET /health} as healthy (it has a leader, no alarm). */
  boolean healthy() throws IOException {
    HttpResponse<String> answer = send(HttpRequest.newBuilder(endpoint.resolve("/health"))
        .timeout(deadline).GET().build());
    return answer.statusCode() == 200
        && JSON.readTree(answer.body()).path("health").asText().equals("true");
  }

  /**
   * POSTs {@code body} to the gateway's {@code path} (e.g. {@code /v3/cluster/member/list})
   * and returns its answer.
   *
   * @throws IOException when the member cannot be reached in time or answers with an error
   */
  JsonNode call(String path, ObjectNode body) throws IOException {
    HttpRequest request = HttpRequest.newBuilder(endpoint.resolve(path)).timeout(deadline)
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body))).build();
    HttpResponse<String> answer = send(request);
    if (answer.statusCode() != 200) {
      throw new IOException("etcd at " + endpoint + " answered " + path + " with HTTP "
          + answer.statusCode() + ": " + message(answer.body()));
    }
    return JSON.readTree(answer.body());
  }

  static ObjectNode object() {
    return JSON.createObjectNode();
  }

  private static ObjectNode keyed(byte[] key) {
    return object().put("key", BASE64.encodeToString(key));
  }

  private HttpResponse<String> send(HttpRequest request) throws IOException {
    try {
      return http.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      InterruptedIOException interrupted = new InterruptedIOException(
          "interrupted waiting for etcd at " + endpoint);
      interrupted.initCause(e);
      throw interrupted;
    }
  }

  /** The gateway's error message ({@code {"error":..., "code":...}}), else the body itself. */
  private static String message(String body) {
    try {
      JsonNode error = JSON.readTree(body);
      if (error.hasNonNull("message")) {
        return error.get("message").asText() + " (gRPC code " + error.path("code").asInt()
            + ")";
      }
    } catch (IOException e) {
      // Not JSON (e.g. a plain-text 404): the body as it came says more than a parse error.
    }
    return body.length() > 200 ? body.substring(0, 200) + "..." : body;
  }
}

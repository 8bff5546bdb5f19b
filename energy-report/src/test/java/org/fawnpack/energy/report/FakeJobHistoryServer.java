package org.fawnpack.energy.report;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A real HTTP server on a free loopback port answering like Hadoop 3.5.0's JobHistory server:
 * registered paths get their JSON, anything else under the jobs resource a 404 with the
 * server's RemoteException body.
 */
final class FakeJobHistoryServer implements AutoCloseable {
  static final String JOBS = "/ws/v1/history/mapreduce/jobs/";

  private final HttpServer server;
  private final Map<String, String> bodies = new ConcurrentHashMap<>();
  private final Map<String, Integer> statuses = new ConcurrentHashMap<>();
  final List<String> requests = new CopyOnWriteArrayList<>();
  final List<String> acceptHeaders = new CopyOnWriteArrayList<>();

  FakeJobHistoryServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", this::handle);
    server.start();
  }

  /** Serves {@code json} at {@code /ws/v1/history/mapreduce/jobs/<pathAfterJobs>}. */
  FakeJobHistoryServer serve(String pathAfterJobs, String json) {
    bodies.put(JOBS + pathAfterJobs, json);
    return this;
  }

  FakeJobHistoryServer fail(String pathAfterJobs, int status, String body) {
    bodies.put(JOBS + pathAfterJobs, body);
    statuses.put(JOBS + pathAfterJobs, status);
    return this;
  }

  /** The job's three resources. */
  FakeJobHistoryServer job(String jobId, String job, String counters, String tasks) {
    return serve(jobId, job).serve(jobId + "/counters", counters).serve(jobId + "/tasks", tasks);
  }

  /** One task's attempts ({@code .../tasks/<taskId>/attempts}). */
  FakeJobHistoryServer attempts(String jobId, String taskId, String json) {
    return serve(jobId + "/tasks/" + taskId + "/attempts", json);
  }

  String address() {
    return "127.0.0.1:" + server.getAddress().getPort();
  }

  private void handle(HttpExchange exchange) throws IOException {
    String path = exchange.getRequestURI().getPath();
    requests.add(exchange.getRequestMethod() + " " + path);
    String accept = exchange.getRequestHeaders().getFirst("Accept");
    acceptHeaders.add(accept == null ? "" : accept);
    String body = bodies.get(path);
    int status = statuses.getOrDefault(path, 200);
    if (body == null) {
      status = 404;
      String job = path.startsWith(JOBS) ? path.substring(JOBS.length()).split("/")[0] : path;
      body = "{\"RemoteException\":{\"exception\":\"NotFoundException\",\"message\":"
          + "\"java.lang.Exception: job, " + job + ", is not found\",\"javaClassName\":"
          + "\"org.apache.hadoop.yarn.webapp.NotFoundException\"}}";
    }
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}

package org.fawnpack.integration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.fawnpack.minicluster.EmbeddedCluster;

/** Reads a finished job's counters from the JobHistory server's REST API, as users' tools do. */
final class JobHistoryRest {
  private final String base;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private final ObjectMapper json = new ObjectMapper();

  JobHistoryRest(EmbeddedCluster cluster) {
    this.base = "http://" + cluster.clientConf().get("mapreduce.jobhistory.webapp.address")
        + "/ws/v1/history/mapreduce";
  }

  JsonNode get(String path) throws IOException, InterruptedException {
    HttpRequest request = HttpRequest.newBuilder(URI.create(base + path))
        .header("Accept", "application/json").timeout(Duration.ofSeconds(30)).build();
    HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IOException("GET " + base + path + " -> " + response.statusCode() + ": "
          + response.body());
    }
    return json.readTree(response.body());
  }

  /** Total values of one counter group of a job, by counter name. */
  Map<String, Long> jobCounters(String jobId, String group) throws IOException, InterruptedException {
    return groupTotals(get("/jobs/" + jobId + "/counters").path("jobCounters"), group, "totalCounterValue");
  }

  /** Values of one counter group of a task (its successful attempt). */
  Map<String, Long> taskCounters(String jobId, String taskId, String group)
      throws IOException, InterruptedException {
    return groupTotals(get("/jobs/" + jobId + "/tasks/" + taskId + "/counters").path("jobTaskCounters"),
        group, "value");
  }

  /**
   * The elements of a JSON list as the JobHistory server writes it: its JSON provider (Jettison)
   * writes a one-element list as the bare element and an empty list as "".
   */
  static List<JsonNode> elements(JsonNode listOrElement) {
    List<JsonNode> list = new ArrayList<>();
    if (listOrElement.isArray()) {
      listOrElement.forEach(list::add);
    } else if (listOrElement.isObject()) {
      list.add(listOrElement);
    }
    return list;
  }

  private static Map<String, Long> groupTotals(JsonNode root, String group, String field) {
    Map<String, Long> values = new HashMap<>();
    for (JsonNode g : elements(root.path(root.has("counterGroup") ? "counterGroup" : "taskCounterGroup"))) {
      if (group.equals(g.path("counterGroupName").asText())) {
        for (JsonNode c : elements(g.path("counter"))) {
          values.put(c.path("name").asText(), c.path(field).asLong());
        }
      }
    }
    return values;
  }
}

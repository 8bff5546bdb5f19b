package org.fawnpack.realdaemons;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * A finished job as the JobHistory server's REST API reports it: state, task counts, where the
 * AM ran, and every counter (group name, counter name) to its total. Read with plain HTTP and
 * Jackson, independently of the pack's own report client.
 */
record JobHistory(String state, int maps, int reduces, String amNode, Map<String, Long> counters) {
  private static final ObjectMapper JSON = new ObjectMapper();

  static JobHistory read(String jobId) throws IOException, InterruptedException {
    String base = "http://" + LoopbackCluster.MASTER + ":19888/ws/v1/history/mapreduce/jobs/"
        + jobId;
    JsonNode job = JSON.readTree(LoopbackCluster.get(base)).path("job");
    JsonNode attempts = JSON.readTree(LoopbackCluster.get(base + "/jobattempts"))
        .path("jobAttempts").path("jobAttempt");
    JsonNode attempt = attempts.isArray() ? attempts.get(attempts.size() - 1) : attempts;
    Map<String, Long> counters = new HashMap<>();
    JsonNode groups = JSON.readTree(LoopbackCluster.get(base + "/counters"))
        .path("jobCounters").path("counterGroup");
    for (JsonNode group : list(groups)) {
      for (JsonNode counter : list(group.path("counter"))) {
        counters.put(group.path("counterGroupName").asText() + "." + counter.path("name").asText(),
            counter.path("totalCounterValue").asLong());
      }
    }
    return new JobHistory(job.path("state").asText(), job.path("mapsCompleted").asInt(),
        job.path("reducesCompleted").asInt(), attempt.path("nodeHttpAddress").asText(), counters);
  }

  /** Jettison gives a one-element list as the bare object. */
  private static Iterable<JsonNode> list(JsonNode node) {
    if (node.isArray()) {
      return node;
    }
    return node.isMissingNode() || node.isTextual() ? java.util.List.of()
        : java.util.List.of(node);
  }

  long counter(String group, String name) {
    return counters.getOrDefault(group + "." + name, 0L);
  }

  static final String ENERGY = "org.fawnpack.energy.EnergyCounter";
}

package org.fawnpack.energy.report;

import static org.fawnpack.energy.report.JettisonJson.list;
import static org.fawnpack.energy.report.JettisonJson.member;
import static org.fawnpack.energy.report.JettisonJson.number;
import static org.fawnpack.energy.report.JettisonJson.text;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * One attempt of a reduce task as the JobHistory server's
 * {@code /jobs/{job}/tasks/{task}/attempts} gives it: Hadoop 3.5.0's
 * {@code app.webapp.dao.ReduceTaskAttemptInfo}, which adds to an attempt's {@code startTime} and
 * {@code finishTime} the end of its shuffle ({@code shuffleFinishTime}: every map output fetched)
 * and of its merge ({@code mergeFinishTime}: the sort finished, the reduce function starts).
 * Times are epoch ms; -1 (Hadoop's default, an attempt that failed before getting there) or 0
 * means not known. A map attempt in the list has neither field and reads as not known.
 */
public record ReduceAttempt(String id, String state, long startTime, long finishTime,
    long shuffleFinishTime, long mergeFinishTime) {

  public boolean succeeded() {
    return "SUCCEEDED".equals(state);
  }

  /** Whether the attempt got all its map outputs (its shuffle finish time is known). */
  public boolean shuffled() {
    return shuffleFinishTime > 0;
  }

  /**
   * {@code {"taskAttempts":{"taskAttempt":[...]}}} (or a bare attempt object, or {@code ""} for
   * none: Jettison's shapes, {@link JettisonJson#list}).
   */
  static List<ReduceAttempt> listFrom(JsonNode root) {
    List<ReduceAttempt> attempts = new ArrayList<>();
    for (JsonNode a : list(member(root, "taskAttempts"), "taskAttempt")) {
      attempts.add(new ReduceAttempt(text(a, "id"), text(a, "state"), number(a, "startTime", 0),
          number(a, "finishTime", 0), number(a, "shuffleFinishTime", 0),
          number(a, "mergeFinishTime", 0)));
    }
    return attempts;
  }
}

package org.fawnpack.energy.service;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.fawnpack.energy.cpu.NodeUtilisation;

/**
 * The node's recent power samples (a bounded ring: {@code fawn.energy.history.max-samples}) and,
 * per application still running or not yet written out, the microjoules it got in each sample.
 * This is what an application's history file is cut from when it stops.
 */
final class PowerHistory {
  /** One interval: its end time, the node's power then, its energy, and the application's share. */
  record Row(long millis, double watts, long nodeMicrojoules, long appMicrojoules, boolean gap) {
  }

  /** One interval of the node, numbered, with the energy it booked to any container. */
  record NodeRow(long seq, long millis, double watts, long nodeMicrojoules,
      long attributedMicrojoules, boolean gap, NodeUtilisation.Sample utilisation) {
  }

  private record Sample(long seq, long millis, double watts, long microjoules, long attributed,
      boolean gap, NodeUtilisation.Sample utilisation) {
  }

  /** An application's per-sample energy, as parallel growable arrays (no object per sample). */
  private static final class AppSeries {
    long[] seqs = new long[64];
    long[] microjoules = new long[64];
    int size;

    void add(long seq, long value) {
      if (size == seqs.length) {
        seqs = Arrays.copyOf(seqs, size * 2);
        microjoules = Arrays.copyOf(microjoules, size * 2);
      }
      seqs[size] = seq;
      microjoules[size] = value;
      size++;
    }

    void dropBefore(long seq) {
      int first = 0;
      while (first < size && seqs[first] < seq) {
        first++;
      }
      System.arraycopy(seqs, first, seqs, 0, size - first);
      System.arraycopy(microjoules, first, microjoules, 0, size - first);
      size -= first;
    }
  }

  private final int capacity;
  private final ArrayDeque<Sample> samples = new ArrayDeque<>();
  private final Map<String, AppSeries> apps = new HashMap<>();
  private long nextSeq;

  PowerHistory(int capacity) {
    this.capacity = capacity;
  }

  synchronized void add(long millis, double watts, long microjoules, boolean gap,
      Map<String, Long> perApplication) {
    add(millis, watts, microjoules, gap, perApplication, NodeUtilisation.Sample.UNKNOWN);
  }

  /** As the other add, with the node's utilisation in the interval. */
  synchronized void add(long millis, double watts, long microjoules, boolean gap,
      Map<String, Long> perApplication, NodeUtilisation.Sample utilisation) {
    long seq = nextSeq++;
    long attributed = 0;
    for (long share : perApplication.values()) {
      attributed += share;
    }
    samples.addLast(new Sample(seq, millis, watts, microjoules, attributed, gap, utilisation));
    if (samples.size() > capacity) {
      samples.removeFirst();
    }
    long oldest = samples.peekFirst().seq;
    for (Map.Entry<String, Long> entry : perApplication.entrySet()) {
      AppSeries series = apps.computeIfAbsent(entry.getKey(), k -> new AppSeries());
      series.add(seq, entry.getValue());
      if (series.size > 2 * capacity) {
        series.dropBefore(oldest); // a long-running application: keep what the ring still has
      }
    }
  }

  /**
   * The samples from just before the application's first booked interval to now, each with the
   * application's share (0 where it had none). Empty if the application never got energy.
   */
  synchronized List<Row> forApplication(String applicationId) {
    AppSeries series = apps.get(applicationId);
    List<Row> rows = new ArrayList<>();
    if (series == null || series.size == 0) {
      return rows;
    }
    long from = series.seqs[0] - 1;
    int next = 0;
    for (Sample sample : samples) {
      if (sample.seq < from) {
        continue;
      }
      while (next < series.size && series.seqs[next] < sample.seq) {
        next++;
      }
      long share = next < series.size && series.seqs[next] == sample.seq ? series.microjoules[next] : 0;
      rows.add(new Row(sample.millis, sample.watts, sample.microjoules, share, sample.gap));
    }
    return rows;
  }

  /**
   * The node's samples numbered above {@code seq}, oldest first (for its own history: what
   * was not written out yet; those the ring dropped meanwhile are gone).
   */
  synchronized List<NodeRow> after(long seq) {
    List<NodeRow> rows = new ArrayList<>();
    for (Sample s : samples) {
      if (s.seq > seq) {
        rows.add(new NodeRow(s.seq, s.millis, s.watts, s.microjoules, s.attributed, s.gap,
            s.utilisation));
      }
    }
    return rows;
  }

  synchronized void forget(String applicationId) {
    apps.remove(applicationId);
  }

  synchronized int size() {
    return samples.size();
  }
}

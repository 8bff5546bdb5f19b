package org.fawnpack.kv.time;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * Futures on a number that only grows (a ring's epoch, a sequence number): {@link #atLeast}
 * completes once the number reaches a value, so a caller resumes when what it waits for
 * happened instead of looking again and again. Completed outside the lock, with the number
 * reached.
 */
public final class EpochWaits {
  private final TreeMap<Long, List<CompletableFuture<Long>>> waiting = new TreeMap<>();
  private long reached = Long.MIN_VALUE;

  /** Completes once {@link #reached} was told {@code value} or more (at once if it was). */
  public CompletableFuture<Long> atLeast(long value) {
    synchronized (this) {
      if (reached < value) {
        CompletableFuture<Long> f = new CompletableFuture<>();
        waiting.computeIfAbsent(value, v -> new ArrayList<>()).add(f);
        return f;
      }
      return CompletableFuture.completedFuture(reached);
    }
  }

  /** The number is now {@code value} (a lower one than before is ignored). */
  public void reached(long value) {
    List<CompletableFuture<Long>> ready = new ArrayList<>();
    synchronized (this) {
      if (value <= reached) {
        return;
      }
      reached = value;
      Map<Long, List<CompletableFuture<Long>>> due = waiting.headMap(value, true);
      due.values().forEach(ready::addAll);
      due.clear();
    }
    for (CompletableFuture<Long> f : ready) {
      f.complete(value);
    }
  }

  /** How many waits are still open (a caller's timeout does not remove its wait). */
  public synchronized int waiting() {
    return waiting.values().stream().mapToInt(List::size).sum();
  }
}

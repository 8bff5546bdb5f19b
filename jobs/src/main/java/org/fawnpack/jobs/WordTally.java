package org.fawnpack.jobs;

import java.io.IOException;
import java.util.Arrays;

/**
 * Counts byte-string words without an object per word: word bytes live in one growing arena and
 * an open-addressing table holds entry numbers. This is the in-mapper combiner of wordcount2;
 * a map task flushes it when {@link #memoryBytes()} passes its budget.
 *
 * <p>Not thread-safe: one per map task.
 */
final class WordTally {

  /** Receives each distinct word and its count. */
  interface Sink {
    void accept(byte[] bytes, int start, int length, long count)
        throws IOException, InterruptedException;
  }

  private static final int INITIAL_ENTRIES = 1 << 12;

  private byte[] arena;
  private int arenaUsed;
  /** Open-addressing table of entry number + 1; 0 marks an empty slot. */
  private int[] slots;
  private int[] wordStart;
  private int[] wordLength;
  private int[] wordHash;
  private long[] counts;
  private int size;

  WordTally() {
    clear();
  }

  /** Adds one occurrence of {@code bytes[start, start + length)}. */
  void add(byte[] bytes, int start, int length) {
    int hash = hash(bytes, start, length);
    int mask = slots.length - 1;
    int slot = hash & mask;
    while (true) {
      int entry = slots[slot] - 1;
      if (entry < 0) {
        insert(slot, hash, bytes, start, length);
        return;
      }
      if (wordHash[entry] == hash && wordLength[entry] == length
          && Arrays.equals(arena, wordStart[entry], wordStart[entry] + length,
              bytes, start, start + length)) {
        counts[entry]++;
        return;
      }
      slot = (slot + 1) & mask;
    }
  }

  private void insert(int slot, int hash, byte[] bytes, int start, int length) {
    if (size == counts.length) {
      growEntries();
    }
    if (arenaUsed + length > arena.length) {
      arena = Arrays.copyOf(arena, Math.max(arena.length * 2, arenaUsed + length));
    }
    System.arraycopy(bytes, start, arena, arenaUsed, length);
    wordStart[size] = arenaUsed;
    wordLength[size] = length;
    wordHash[size] = hash;
    counts[size] = 1;
    arenaUsed += length;
    slots[slot] = ++size;
    if (size * 2 > slots.length) { // keep the load factor at or below 1/2
      rehash(slots.length * 2);
    }
  }

  private void growEntries() {
    int capacity = counts.length * 2;
    wordStart = Arrays.copyOf(wordStart, capacity);
    wordLength = Arrays.copyOf(wordLength, capacity);
    wordHash = Arrays.copyOf(wordHash, capacity);
    counts = Arrays.copyOf(counts, capacity);
  }

  private void rehash(int slotCount) {
    slots = new int[slotCount];
    int mask = slotCount - 1;
    for (int entry = 0; entry < size; entry++) {
      int slot = wordHash[entry] & mask;
      while (slots[slot] != 0) {
        slot = (slot + 1) & mask;
      }
      slots[slot] = entry + 1;
    }
  }

  /** FNV-1a, then a final mix so that linear probing sees well-spread low bits. */
  private static int hash(byte[] bytes, int start, int length) {
    int h = 0x811C9DC5;
    for (int i = start; i < start + length; i++) {
      h = (h ^ bytes[i]) * 0x01000193;
    }
    return h ^ (h >>> 16);
  }

  /** Distinct words held. */
  int size() {
    return size;
  }

  /** Heap held by the tally, approximately, in bytes. */
  long memoryBytes() {
    return arena.length + 4L * slots.length + (4L + 4L + 4L + 8L) * counts.length;
  }

  /** Hands every word and count to the sink, in insertion order. */
  void forEach(Sink sink) throws IOException, InterruptedException {
    for (int entry = 0; entry < size; entry++) {
      sink.accept(arena, wordStart[entry], wordLength[entry], counts[entry]);
    }
  }

  /** Forgets every word and gives back the grown arrays, so the memory budget holds again. */
  void clear() {
    arena = new byte[1 << 16];
    arenaUsed = 0;
    slots = new int[INITIAL_ENTRIES * 2];
    wordStart = new int[INITIAL_ENTRIES];
    wordLength = new int[INITIAL_ENTRIES];
    wordHash = new int[INITIAL_ENTRIES];
    counts = new long[INITIAL_ENTRIES];
    size = 0;
  }
}

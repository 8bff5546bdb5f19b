package org.fawnpack.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class WordTallyTest {

  private static final String[] ALPHABET = {
    "a", "b", "z", "Q", "0", "9", "_", "-", "é", "ß", "日", "本", "😀", "Ω", "\u0000", "\u007f"
  };

  private static String randomWord(Random random, int maxChars) {
    int length = 1 + random.nextInt(maxChars);
    StringBuilder word = new StringBuilder();
    for (int i = 0; i < length; i++) {
      word.append(ALPHABET[random.nextInt(ALPHABET.length)]);
    }
    return word.toString();
  }

  /** Adds the word from inside a larger buffer, so start and length matter. */
  private static void add(WordTally tally, String word, Random random) {
    byte[] bytes = word.getBytes(StandardCharsets.UTF_8);
    int before = random.nextInt(5);
    byte[] buffer = new byte[before + bytes.length + random.nextInt(5)];
    Arrays.fill(buffer, (byte) 'x'); // neighbours that must not leak into the word
    System.arraycopy(bytes, 0, buffer, before, bytes.length);
    tally.add(buffer, before, bytes.length);
  }

  /** The tally's content, in the order forEach hands it out. */
  private static LinkedHashMap<String, Long> contents(WordTally tally) throws Exception {
    LinkedHashMap<String, Long> seen = new LinkedHashMap<>();
    tally.forEach((bytes, start, length, count) -> {
      String word = new String(bytes, start, length, StandardCharsets.UTF_8);
      Long previous = seen.put(word, count);
      assertEquals(null, previous, "word handed out twice: " + word);
    });
    return seen;
  }

  @Test
  void add_manyRandomWords_countsMatchHashMapOracle() throws Exception {
    Random random = new Random(1234);
    List<String> vocabulary = new ArrayList<>();
    for (int i = 0; i < 12_000; i++) { // 3x the initial 4096 entries: several rehashes
      vocabulary.add(randomWord(random, i % 10 == 0 ? 40 : 6));
    }
    WordTally tally = new WordTally();
    Map<String, Long> oracle = new LinkedHashMap<>();
    for (int i = 0; i < 200_000; i++) {
      // Skewed like text: a few words very often, most rarely.
      int index = (int) Math.min(vocabulary.size() - 1,
          Math.abs(random.nextGaussian()) * vocabulary.size() / 3);
      String word = vocabulary.get(index);
      add(tally, word, random);
      oracle.merge(word, 1L, Long::sum);
    }
    LinkedHashMap<String, Long> actual = contents(tally);
    assertEquals(oracle, actual);
    assertEquals(List.copyOf(oracle.keySet()), List.copyOf(actual.keySet()), "insertion order");
    assertEquals(oracle.size(), tally.size());
  }

  @Test
  void add_edgeCaseWords_countedExactly() throws Exception {
    Random random = new Random(5);
    String[] words = {
      "", "a", "A", "aa", "a ", " a", "é", "e\u0301", "😀", "\u0000", "\u0000\u0000",
      "x".repeat(70_000), // longer than the initial 64 KiB arena on its own
      "x".repeat(70_001), "日本語"
    };
    WordTally tally = new WordTally();
    Map<String, Long> oracle = new LinkedHashMap<>();
    for (int round = 0; round < 3; round++) {
      for (String word : words) {
        int times = 1 + random.nextInt(3);
        for (int t = 0; t < times; t++) {
          add(tally, word, random);
          oracle.merge(word, 1L, Long::sum);
        }
      }
    }
    assertEquals(oracle, contents(tally));
    assertEquals(words.length, tally.size());
  }

  @Test
  void add_wordsDifferingOnlyInSignedBytes_keptApart() throws Exception {
    // Bytes 0x7f and 0x80..0xff hash differently only if signedness is handled consistently.
    WordTally tally = new WordTally();
    Map<String, Long> oracle = new LinkedHashMap<>();
    for (int b = 0; b < 256; b++) {
      byte[] word = {'w', (byte) b};
      tally.add(word, 0, 2);
      tally.add(word, 0, 2);
      oracle.put(Arrays.toString(word), 2L);
    }
    Map<String, Long> actual = new LinkedHashMap<>();
    tally.forEach((bytes, start, length, count) ->
        actual.put(Arrays.toString(Arrays.copyOfRange(bytes, start, start + length)), count));
    assertEquals(oracle, actual);
  }

  @Test
  void size_distinctWordsPastInitialCapacity_growsWithoutLosingAny() throws Exception {
    WordTally tally = new WordTally();
    Map<String, Long> oracle = new LinkedHashMap<>();
    for (int i = 0; i < 100_000; i++) {
      String word = "w" + i;
      add(tally, word, new Random(i));
      oracle.put(word, 1L);
      if (i % 10_000 == 0) {
        assertEquals(i + 1, tally.size());
      }
    }
    // Second pass: every word already present must be found again, not inserted twice.
    for (int i = 0; i < 100_000; i += 3) {
      add(tally, "w" + i, new Random(-i));
      oracle.merge("w" + i, 1L, Long::sum);
    }
    assertEquals(oracle, contents(tally));
  }

  @Test
  void clear_afterManyWords_forgetsEverythingAndCountsAfresh() throws Exception {
    Random random = new Random(8);
    WordTally tally = new WordTally();
    for (int i = 0; i < 50_000; i++) {
      add(tally, "word" + i, random);
    }
    long grown = tally.memoryBytes();
    tally.clear();
    assertEquals(0, tally.size());
    assertEquals(Map.of(), contents(tally));
    assertTrue(tally.memoryBytes() < grown, "clear should give back the grown arrays");
    add(tally, "word7", random);
    add(tally, "word7", random);
    add(tally, "fresh", random);
    assertEquals(Map.of("word7", 2L, "fresh", 1L), contents(tally));
  }

  @Test
  void memoryBytes_distinctWordsAdded_growsAndCoversTheWordBytes() {
    Random random = new Random(9);
    WordTally tally = new WordTally();
    long initial = tally.memoryBytes();
    assertTrue(initial > 0);
    long previous = initial;
    long wordBytes = 0;
    for (int i = 0; i < 60_000; i++) {
      String word = "distinct-" + i + "-" + randomWord(random, 8);
      add(tally, word, random);
      wordBytes += word.getBytes(StandardCharsets.UTF_8).length;
      long now = tally.memoryBytes();
      assertTrue(now >= previous, "memoryBytes shrank while adding");
      // The arena holds every distinct word's bytes, and each entry costs at least its count.
      assertTrue(now >= wordBytes + 8L * tally.size(), "memoryBytes below what is held");
      previous = now;
    }
    assertTrue(previous > initial, "memoryBytes never grew");
  }

  @Test
  void memoryBytes_repeatedWord_doesNotGrow() {
    WordTally tally = new WordTally();
    Random random = new Random(10);
    add(tally, "same", random);
    long once = tally.memoryBytes();
    for (int i = 0; i < 100_000; i++) {
      add(tally, "same", random);
    }
    assertEquals(once, tally.memoryBytes());
  }
}

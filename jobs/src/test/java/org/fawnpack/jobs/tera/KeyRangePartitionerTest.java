package org.fawnpack.jobs.tera;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/** Cut points from a sample, and the partitioner against a linear count of cut points. */
class KeyRangePartitionerTest {

  private static List<byte[]> randomKeys(Random random, int n) {
    List<byte[]> keys = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      byte[] k = new byte[10];
      random.nextBytes(k);
      keys.add(k);
    }
    return keys;
  }

  private static KeyRangePartitioner partitioner(List<byte[]> cuts) {
    Configuration conf = new Configuration(false);
    KeyRangePartitioner.setCutPoints(conf, cuts);
    KeyRangePartitioner p = new KeyRangePartitioner();
    p.setConf(conf);
    return p;
  }

  private static int partition(KeyRangePartitioner p, byte[] key, int partitions) {
    SortKey k = new SortKey();
    k.set(key, 0);
    return p.getPartition(k, null, partitions);
  }

  @Test
  void getPartition_key_numberOfCutPointsNotAboveIt() {
    Random random = new Random(1);
    List<byte[]> sample = randomKeys(random, 5_000);
    // Keys that differ only in the last two bytes, and the cut points themselves.
    List<byte[]> probes = randomKeys(random, 20_000);
    List<byte[]> cuts = KeySampler.cutPoints(sample, 13);
    for (byte[] cut : cuts) {
      probes.add(cut.clone());
      byte[] below = cut.clone();
      below[9]--;
      probes.add(below);
    }
    KeyRangePartitioner p = partitioner(cuts);
    for (byte[] key : probes) {
      int expected = 0;
      for (byte[] cut : cuts) {
        if (Arrays.compareUnsigned(cut, key) <= 0) {
          expected++;
        }
      }
      assertEquals(expected, partition(p, key, 13));
    }
  }

  @Test
  void sortedKeysGetNonDecreasingPartitions_balancedOnTheSample() {
    Random random = new Random(2);
    List<byte[]> sample = randomKeys(random, 10_000);
    int partitions = 8;
    KeyRangePartitioner p = partitioner(KeySampler.cutPoints(sample, partitions));
    List<byte[]> sorted = new ArrayList<>(sample);
    sorted.sort(Arrays::compareUnsigned);
    int[] sizes = new int[partitions];
    int last = 0;
    for (byte[] key : sorted) {
      int part = partition(p, key, partitions);
      assertTrue(part >= last, "order preserved");
      last = part;
      sizes[part]++;
    }
    for (int size : sizes) {
      assertEquals(sample.size() / partitions, size, 1.0, Arrays.toString(sizes));
    }
  }

  @Test
  void onePartition_needsNoCutPoints() {
    KeyRangePartitioner p = partitioner(KeySampler.cutPoints(List.of(), 1));
    assertEquals(0, partition(p, new byte[10], 1));
  }

  @Test
  void emptySample_allKeysGoToTheLastPartition() {
    KeyRangePartitioner p = partitioner(KeySampler.cutPoints(List.of(), 4));
    assertEquals(3, partition(p, new byte[10], 4));
  }
}

package org.fawnpack.kv.ring;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/** Ring positions: HMAC-SHA1 under the ring key, checked against RFC 2202 and a fresh Mac. */
class RingHashTest {

  @Test
  void position_rfc2202TestCase1_firstEightBytesOfHmacSha1() {
    byte[] key = new byte[20];
    Arrays.fill(key, (byte) 0x0b);
    RingHash hash = new RingHash(key);
    byte[] data = "Hi There".getBytes(StandardCharsets.US_ASCII);
    // RFC 2202, test case 1: b617318655057264e28bc0b6fb378c8ef146be00
    assertEquals(0xb617318655057264L, hash.position(data));
    assertEquals("b617318655057264e28bc0b6fb378c8ef146be00", hex(hash.digest(data)));
  }

  @Test
  void digest_reusedAcrossCallsAndThreads_equalsAFreshHmacEachTime() throws Exception {
    byte[] key = "ring key for the reuse test".getBytes(StandardCharsets.UTF_8);
    RingHash hash = new RingHash(key);
    SecretKeySpec spec = new SecretKeySpec(key, "HmacSHA1");
    List<Callable<Void>> workers = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      int seed = t;
      workers.add(() -> {
        Random random = new Random(seed);
        for (int i = 0; i < 2_000; i++) {
          byte[] data = new byte[random.nextInt(40)];
          random.nextBytes(data);
          Mac fresh = Mac.getInstance("HmacSHA1");
          fresh.init(spec);
          assertEquals(hex(fresh.doFinal(data)), hex(hash.digest(data)), "input " + i);
        }
        return null;
      });
    }
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      for (Future<Void> done : pool.invokeAll(workers)) {
        done.get();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private static String hex(byte[] bytes) {
    StringBuilder s = new StringBuilder();
    for (byte b : bytes) {
      s.append(String.format("%02x", b));
    }
    return s.toString();
  }
}

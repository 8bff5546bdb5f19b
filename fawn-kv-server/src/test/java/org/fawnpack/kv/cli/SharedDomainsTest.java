package org.fawnpack.kv.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.ring.RingHash;
import org.junit.jupiter.api.Test;

/** What {@code ./fawn kv ring} says of an arc whose chain cannot span distinct domains. */
class SharedDomainsTest {
  private static final RingHash HASH = new RingHash("shared domains key, 16 bytes+".getBytes(
      StandardCharsets.UTF_8));

  @Test
  void twoBoxesThreeReplicas_everyChainSaysWhichDomainItShares() {
    Ring ring = Ring.empty(HASH, 3, 3).withMember(new Member("b0", "h0", 7000, "box1"))
        .withMember(new Member("b1", "h1", 7001, "box1"))
        .withMember(new Member("b2", "h2", 7002, "box2"));
    for (Chain chain : ring.chains()) {
      assertEquals(" (domains shared: [box1]; too few live domains for one member each)",
          ClusterInspection.sharedDomains(chain), chain.toString());
    }
  }

  @Test
  void aBoxPerMember_orNoDomains_saysNothing() {
    Ring boxes = Ring.empty(HASH, 3, 3).withMember(new Member("b0", "h0", 7000, "box1"))
        .withMember(new Member("b1", "h1", 7001, "box2"))
        .withMember(new Member("b2", "h2", 7002, "box3"));
    Ring hosts = Ring.empty(HASH, 3, 3).withMember(new Member("b0", "h0", 7000))
        .withMember(new Member("b1", "h1", 7001)).withMember(new Member("b2", "h2", 7002));
    for (Ring ring : new Ring[] {boxes, hosts}) {
      for (Chain chain : ring.chains()) {
        assertEquals("", ClusterInspection.sharedDomains(chain), chain.toString());
      }
    }
  }
}

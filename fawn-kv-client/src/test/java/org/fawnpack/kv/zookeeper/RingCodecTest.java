package org.fawnpack.kv.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.ring.RingHash;
import org.junit.jupiter.api.Test;

class RingCodecTest {
  private static final RingHash HASH = new RingHash(new byte[16]);

  @Test
  void decode_encodedRing_sameEpochMembersAndChains() {
    Ring ring = Ring.empty(HASH, 3, 2).withMember(new Member("b1", "10.0.0.2", 7070))
        .withMember(new Member("b0", "10.0.0.1", 7070));
    Ring back = RingCodec.decode(RingCodec.encode(ring), HASH, "/r");
    assertEquals(ring.epoch(), back.epoch());
    assertEquals(ring.chains(), back.chains());
    assertEquals("fawn-kv-ring 1\nepoch 2\nvnodes 3\nreplicas 2\n"
        + "member b0 10.0.0.1 7070\nmember b1 10.0.0.2 7070\n",
        new String(RingCodec.encode(ring), StandardCharsets.UTF_8));
  }

  /** A failure domain other than the host is a fifth word; a host's own is not written. */
  @Test
  void decode_ringWithDomains_keepsThemAndTheirChains() {
    Ring ring = Ring.empty(HASH, 3, 2).withMember(new Member("b0", "10.0.0.1", 7070, "box1"))
        .withMember(new Member("b1", "10.0.0.2", 7070, "box1"))
        .withMember(new Member("b2", "10.0.0.3", 7070));
    String text = new String(RingCodec.encode(ring), StandardCharsets.UTF_8);
    assertTrue(text.contains("member b0 10.0.0.1 7070 box1\nmember b1 10.0.0.2 7070 box1\n"
        + "member b2 10.0.0.3 7070\n"), text);
    Ring back = RingCodec.decode(RingCodec.encode(ring), HASH, "/r");
    assertEquals(new java.util.HashSet<>(ring.members()), new java.util.HashSet<>(back.members()));
    assertEquals("box1", back.member("b1").domain());
    assertEquals("10.0.0.3", back.member("b2").domain());
    assertEquals(ring.chains(), back.chains());
  }

  @Test
  void decode_ringWithDownAndPendingMembers_keepsThemAndItsChains() {
    Ring ring = Ring.empty(HASH, 2, 2).withMember(new Member("b0", "10.0.0.1", 7070))
        .withMember(new Member("b1", "10.0.0.2", 7070))
        .withMember(new Member("b2", "10.0.0.3", 7070)).withMembersDown(java.util.List.of("b1"));
    Ring back = RingCodec.decode(RingCodec.encode(ring), HASH, "/r");
    assertEquals(java.util.Set.of("b1"), back.down());
    assertTrue(!ring.pending().isEmpty(), "b1's arcs have replacements copying them");
    assertEquals(ring.pending(), back.pending());
    assertEquals(ring.chains(), back.chains());
    assertTrue(new String(RingCodec.encode(ring), StandardCharsets.UTF_8).contains("down b1\n"
        + "pending b"));
  }

  @Test
  void decode_ringWithAJoiningBackend_keepsItAndTheFrozenChains() {
    Ring ring = Ring.empty(HASH, 2, 2).withMember(new Member("b0", "10.0.0.1", 7070))
        .withMember(new Member("b1", "10.0.0.2", 7070))
        .withJoining(java.util.List.of(new Member("b2", "10.0.0.3", 7071)));
    Ring back = RingCodec.decode(RingCodec.encode(ring), HASH, "/r");
    assertEquals(java.util.List.copyOf(ring.joining()), java.util.List.copyOf(back.joining()));
    assertTrue(!back.frozen().isEmpty(), "b2 changes some arc");
    assertEquals(ring.chains(), back.chains());
    assertTrue(new String(RingCodec.encode(ring), StandardCharsets.UTF_8)
        .endsWith("joining b2 10.0.0.3 7071\n"));
  }

  @Test
  void decode_ringWithALeavingMember_keepsItAndItsReplacementsCopying() {
    Ring ring = Ring.empty(HASH, 2, 2).withMember(new Member("b0", "10.0.0.1", 7070))
        .withMember(new Member("b1", "10.0.0.2", 7070))
        .withMember(new Member("b2", "10.0.0.3", 7070)).withLeaving(java.util.List.of("b1"));
    Ring back = RingCodec.decode(RingCodec.encode(ring), HASH, "/r");
    assertEquals(java.util.Set.of("b1"), back.leaving());
    assertTrue(!ring.pending().isEmpty(), "b1's arcs have replacements copying them");
    assertEquals(ring.pending(), back.pending());
    assertEquals(ring.chains(), back.chains());
    assertTrue(new String(RingCodec.encode(ring), StandardCharsets.UTF_8)
        .endsWith("leaving b1\n"));
    String text = new String(RingCodec.encode(ring), StandardCharsets.UTF_8);
    assertTrue(assertThrows(IllegalArgumentException.class, () -> RingCodec.decode(
        text.replace("leaving b1", "leaving b7").getBytes(StandardCharsets.UTF_8), HASH, "/r"))
        .getMessage().contains("b7 is leaving but is not a live member"));
  }

  @Test
  void decode_ringRemovingADownMember_keepsItAndItsFrozenArcs() {
    Ring ring = Ring.empty(HASH, 2, 2).withMember(new Member("b0", "10.0.0.1", 7070))
        .withMember(new Member("b1", "10.0.0.2", 7070))
        .withMember(new Member("b2", "10.0.0.3", 7070)).withMembersDown(java.util.List.of("b1"));
    ring = ring.withPendingDone(ring.pending().keySet()).withRemoving(java.util.List.of("b1"));
    Ring back = RingCodec.decode(RingCodec.encode(ring), HASH, "/r");
    assertEquals(java.util.Set.of("b1"), back.removing());
    assertEquals(ring.frozen(), back.frozen());
    assertTrue(!back.frozen().isEmpty(), "b1's arcs merge");
    assertEquals(ring.chains(), back.chains());
    String text = new String(RingCodec.encode(ring), StandardCharsets.UTF_8);
    assertTrue(text.endsWith("removing b1\n"), text);
    assertTrue(assertThrows(IllegalArgumentException.class, () -> RingCodec.decode(
        text.replace("removing b1", "removing b0").getBytes(StandardCharsets.UTF_8), HASH,
        "/r")).getMessage().contains("b0 is being removed but is not a down member"));
  }

  @Test
  void decode_damagedText_namesWhereLineAndProblem() {
    String good = "fawn-kv-ring 1\nepoch 2\nvnodes 3\nreplicas 2\nmember b0 h 7070\n";
    assertMessage("fawn-kv-ring 2\n", "line 1");
    assertMessage(good.replace("epoch 2", "epoch two"), "line 2 'epoch two': not a number");
    assertMessage(good.replace("member b0 h 7070", "member b0 h"), "expected 4 to 5 words");
    assertMessage(good.replace("member b0 h 7070", "member b0 h 7070 box 1"),
        "expected 4 to 5 words");
    assertMessage(good.replace("member b0 h 7070", "member b0 h 7070 a=b"), "failure domain");
    assertMessage(good + "colour blue\n", "unknown setting");
    assertMessage(good.replace("replicas 2\n", ""), "all needed");
    assertMessage(good + "member b0 h2 7071\n", "listed twice");
    assertMessage(good.replace("7070", "0"), "port 0");
    assertMessage(good + "down b9\n", "b9 is marked down but is not in the ring");
    assertMessage(good + "pending b0 12\n", "'12' is not an arc end");
    assertMessage(good + "pending b0\n", "expected at least 3 words");
    assertMessage(good + "pending b0 0000000000000012\n", "not an arc it belongs to");
    assertMessage(good + "joining b0 h 7071\n", "b0 is joining but is a member already");
    assertMessage(good + "joining b5 h\n", "expected 4 to 5 words");
  }

  private static void assertMessage(String text, String part) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> RingCodec.decode(text.getBytes(StandardCharsets.UTF_8), HASH, "/fawn-kv/c/ring"));
    assertTrue(e.getMessage().startsWith("/fawn-kv/c/ring: ") && e.getMessage().contains(part),
        e.getMessage());
  }
}

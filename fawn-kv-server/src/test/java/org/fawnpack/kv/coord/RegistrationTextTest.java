package org.fawnpack.kv.coord;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.fawnpack.kv.ring.Member;
import org.junit.jupiter.api.Test;

/** The text a back-end registers under {@code backends/<id>}, as the coordinator reads it. */
class RegistrationTextTest {

  private static BackendRegistration.Registered read(String text) {
    return BackendRegistration.read("b3", text.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void read_hostPortDomainCrashed_inEveryCombination() {
    assertEquals(new Member("b3", "10.0.0.4", 7070), read("10.0.0.4 7070").member());
    assertFalse(read("10.0.0.4 7070").crashed());
    assertTrue(read("10.0.0.4 7070 crashed").crashed());
    BackendRegistration.Registered boxed = read("10.0.0.4 7070 domain=box2 crashed");
    assertEquals(new Member("b3", "10.0.0.4", 7070, "box2"), boxed.member());
    assertTrue(boxed.crashed());
    assertEquals("box2", read("10.0.0.4 7070 domain=box2").member().domain());
  }

  @Test
  void read_damagedText_refusedNamingTheBackEnd() {
    for (String bad : new String[] {"10.0.0.4", "10.0.0.4 7070 crashed domain=box2",
        "10.0.0.4 7070 crashed crashed", "10.0.0.4 7070 domain=a domain=b", "10.0.0.4 7070 x",
        "10.0.0.4 7070 domain="}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> read(bad),
          bad);
      assertTrue(e.getMessage().contains("b3"), e.getMessage());
    }
  }
}

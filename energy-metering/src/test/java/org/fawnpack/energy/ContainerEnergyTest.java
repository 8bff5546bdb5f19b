package org.fawnpack.energy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ContainerEnergyTest {

  @Test
  void parse_wireForm_fields() {
    ContainerEnergy energy = ContainerEnergy.fromWire(
        "energy_uj=123456789 idle_uj=23456789 samples=42 gaps=3 estimated=true");
    assertEquals(new ContainerEnergy(123_456_789, 23_456_789, 42, 3, true), energy);
    assertEquals(new ContainerEnergy(0, 0, 0, 0, false),
        ContainerEnergy.fromWire("energy_uj=0 idle_uj=0 samples=0 gaps=0 estimated=false"));
  }

  @Test
  void toWire_fields_wireForm() {
    assertEquals("energy_uj=5000 idle_uj=1000 samples=7 gaps=2 estimated=false",
        new ContainerEnergy(5000, 1000, 7, 2, false).toWire());
  }

  @Test
  void toWireThenParse_sameValue() {
    for (ContainerEnergy energy : List.of(ContainerEnergy.NONE,
        new ContainerEnergy(1, 0, 1, 0, true),
        new ContainerEnergy(Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE, false),
        new ContainerEnergy(9_876_543_210L, 1_234_567_890L, 86_400, 17, true))) {
      assertEquals(energy, ContainerEnergy.fromWire(energy.toWire()));
    }
  }

  @Test
  void parse_unknownFieldsOrderOrSpacing_ignored() {
    assertEquals(new ContainerEnergy(300, 100, 5, 1, true), ContainerEnergy.fromWire(
        "  watts=2.5 estimated=true\tgaps=1 future_field=x samples=5 noise idle_uj=100 "
            + "energy_uj=300 node=fawn07  "));
  }

  @Test
  void parse_missingField_rejectedByName() {
    String full = "energy_uj=300 idle_uj=100 samples=5 gaps=1 estimated=false";
    for (String field : List.of("energy_uj", "idle_uj", "samples", "gaps", "estimated")) {
      String without = full.replaceAll(field + "=\\S+", "");
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> ContainerEnergy.fromWire(without), without);
      assertTrue(e.getMessage().contains(field), e.getMessage());
    }
    assertThrows(IllegalArgumentException.class, () -> ContainerEnergy.fromWire(""));
    assertThrows(IllegalArgumentException.class, () -> ContainerEnergy.fromWire("energy_uj"));
  }

  @Test
  void parse_badNumber_rejected() {
    for (String bad : List.of("12x", "", "1.5", "0x10", "99999999999999999999")) {
      String wire = "energy_uj=" + bad + " idle_uj=0 samples=1 gaps=0 estimated=false";
      assertThrows(IllegalArgumentException.class, () -> ContainerEnergy.fromWire(wire), wire);
      String gaps = "energy_uj=10 idle_uj=0 samples=1 gaps=" + bad + " estimated=false";
      assertThrows(IllegalArgumentException.class, () -> ContainerEnergy.fromWire(gaps), gaps);
    }
  }

  @Test
  void parse_inconsistentFigures_rejected() {
    assertThrows(IllegalArgumentException.class, () -> new ContainerEnergy(-1, 0, 0, 0, false));
    assertThrows(IllegalArgumentException.class, () -> new ContainerEnergy(10, -1, 0, 0, false));
    assertThrows(IllegalArgumentException.class, () -> new ContainerEnergy(10, 11, 0, 0, false));
    assertThrows(IllegalArgumentException.class, () -> new ContainerEnergy(10, 0, -1, 0, false));
    assertThrows(IllegalArgumentException.class, () -> new ContainerEnergy(10, 0, 0, -1, false));
    assertThrows(IllegalArgumentException.class, () -> ContainerEnergy.fromWire(
        "energy_uj=10 idle_uj=11 samples=1 gaps=0 estimated=false"));
    // idle may be all of it
    assertEquals(10, new ContainerEnergy(10, 10, 0, 0, false).idleMicrojoules());
  }

  @Test
  void minus_earlierAccount_whatAccruedSince() {
    ContainerEnergy earlier = new ContainerEnergy(1_000, 400, 10, 1, false);
    ContainerEnergy later = new ContainerEnergy(2_500, 700, 25, 3, true);
    assertEquals(new ContainerEnergy(1_500, 300, 15, 2, true), later.minus(earlier));
    assertEquals(later, later.minus(ContainerEnergy.NONE));
    assertEquals(new ContainerEnergy(0, 0, 0, 0, true), later.minus(later));
    // an account that went backwards is no account
    assertThrows(IllegalArgumentException.class, () -> earlier.minus(later));
  }
}

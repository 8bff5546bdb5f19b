package org.fawnpack.energy.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.fawnpack.energy.ContainerEnergy;
import org.fawnpack.energy.cpu.ContainerProcessKey;
import org.junit.jupiter.api.Test;

class EnergyLedgerTest {
  private static final long S = 1_000_000_000L;
  private static final String APP1 = "application_1700000000000_0001";
  private static final String APP2 = "application_1700000000000_0002";

  private static void open(EnergyLedger ledger, String id, String app, int vcores, long atNanos) {
    ledger.open(id, app, "TASK", vcores, 1024, atNanos, 1_700_000_000_000L + atNanos / 1_000_000);
  }

  private static void stop(EnergyLedger ledger, String id, long atNanos) {
    ledger.markStopped(id, atNanos, 1_700_000_000_000L + atNanos / 1_000_000);
  }

  private static Map<String, Long> book(EnergyLedger ledger, long start, long end, long energy,
      long idle, Map<String, Long> cpu) {
    return ledger.book(new Interval(start, end, energy, idle, cpu, false, false));
  }

  private static ContainerEnergy energy(EnergyLedger ledger, String id) {
    return ledger.energyOf(id).orElseThrow(() -> new AssertionError("no account for " + id));
  }

  private static Set<String> running(EnergyLedger ledger) {
    return ledger.runningContainers().stream().map(ContainerProcessKey::containerId)
        .collect(Collectors.toSet());
  }

  /** The test's own model of one container, to know independently who was alive when. */
  private static final class Model {
    final String id;
    final String app;
    long start;
    long stop = -1;
    boolean retired;
    long cpu;

    Model(String id, String app, long start) {
      this.id = id;
      this.app = app;
      this.start = start;
    }

    boolean aliveIn(long from, long to) {
      long begin = Math.max(from, start);
      long end = stop >= 0 ? Math.min(to, stop) : to;
      return !retired && to > from && end > begin;
    }
  }

  @Test
  void book_randomSequences_conserveEnergyToTheMicrojoule() {
    Random random = new Random(42L);
    EnergyLedger ledger = new EnergyLedger();
    List<Model> models = new ArrayList<>();
    List<Model> active = new ArrayList<>(); // not retired
    long now = 5 * S;
    long lastEnd = now;
    long expectedMetered = 0;
    long expectedNodeIdle = 0;
    int booked = 0;
    int emptyIntervals = 0;
    int restores = 0;
    for (int step = 0; step < 12_000; step++) {
      int action = random.nextInt(100);
      if (action < 14) {
        Model m = new Model("container_" + step, random.nextBoolean() ? APP1 : APP2, now);
        models.add(m);
        active.add(m);
        open(ledger, m.id, m.app, random.nextInt(5), now);
      } else if (action < 35) {
        List<Model> runningModels = active.stream().filter(m -> !m.retired && m.stop < 0).toList();
        if (!runningModels.isEmpty()) {
          Model m = runningModels.get(random.nextInt(runningModels.size()));
          m.stop = now;
          stop(ledger, m.id, now);
        }
      } else if (action < 42) {
        now += random.nextInt(500) * 1_000_000L; // open/stop calls land inside the next interval
      } else if (action < 99) {
        long end = now + (random.nextInt(20) == 0 ? 0 : random.nextInt(2_000) * 1_000_000L);
        long energy = random.nextInt(10) == 0 ? 0 : (long) (random.nextDouble() * 50_000_000L);
        long idle = random.nextInt(4) == 0 ? 0 : (long) (random.nextDouble() * energy);
        Map<String, Long> cpu = new HashMap<>();
        for (Model m : active) {
          if (m.stop < 0) {
            m.cpu += random.nextInt(3) == 0 ? 0 : random.nextInt(2_000_000_000);
            if (random.nextInt(10) != 0) {
              cpu.put(m.id, m.cpu);
            }
          }
        }
        final long from = lastEnd;
        boolean anyAlive = active.stream().anyMatch(m -> m.aliveIn(from, end));
        Map<String, Long> perApp = ledger.book(new Interval(lastEnd, end, energy, idle, cpu,
            random.nextInt(20) == 0, random.nextInt(50) == 0));
        expectedMetered += energy;
        if (!anyAlive) {
          expectedNodeIdle += energy;
          emptyIntervals++;
          assertTrue(perApp.isEmpty(), "step " + step + ": nobody alive, yet " + perApp);
        } else {
          assertEquals(energy, perApp.values().stream().mapToLong(Long::longValue).sum(),
              "step " + step + ": the applications' shares must add up to the interval");
        }
        for (Model m : active) {
          if (m.stop >= 0 && m.stop <= end) {
            m.retired = true;
          }
        }
        active.removeIf(m -> m.retired);
        now = end;
        lastEnd = end;
        booked++;
      } else {
        // A NodeManager restart: checkpoint and restore into a fresh ledger.
        LedgerState state = ledger.state();
        ledger = new EnergyLedger();
        ledger.restore(state, now);
        for (Model m : active) {
          m.start = now;
          if (m.stop >= 0) {
            m.retired = true; // restored stopped containers are finished
          }
        }
        active.removeIf(m -> m.retired);
        restores++;
      }

      assertEquals(expectedMetered, ledger.meteredMicrojoules(), "metered, step " + step);
      assertEquals(expectedNodeIdle, ledger.nodeIdleMicrojoules(), "node idle, step " + step);
      assertEquals(ledger.meteredMicrojoules(),
          ledger.nodeIdleMicrojoules() + ledger.attributedMicrojoules(),
          "metered == node idle + attributed, step " + step);
      if (step % 250 == 0) {
        long sumOfAccounts = 0;
        for (Model m : models) {
          ContainerEnergy e = energy(ledger, m.id);
          assertTrue(e.idleMicrojoules() <= e.energyMicrojoules());
          sumOfAccounts += e.energyMicrojoules();
        }
        assertEquals(expectedMetered - expectedNodeIdle, sumOfAccounts, "step " + step);
        Set<String> expectedRunning = models.stream().filter(m -> !m.retired && m.stop < 0)
            .map(m -> m.id).collect(Collectors.toSet());
        assertEquals(expectedRunning, running(ledger), "step " + step);
        assertEquals(active.size(), ledger.liveCount());
      }
    }
    // The random walk must actually have exercised every branch.
    assertTrue(booked > 6_000 && emptyIntervals > 50 && restores > 50 && models.size() > 1_000,
        "booked " + booked + ", empty " + emptyIntervals + ", restores " + restores);
  }

  @Test
  void book_noContainers_allToNodeIdle() {
    EnergyLedger ledger = new EnergyLedger();
    Map<String, Long> perApp = book(ledger, 0, S, 5_000_000, 1_000_000, Map.of());
    assertTrue(perApp.isEmpty());
    assertEquals(5_000_000, ledger.meteredMicrojoules());
    assertEquals(5_000_000, ledger.nodeIdleMicrojoules());
    assertEquals(0, ledger.attributedMicrojoules());

    // A container opened after the interval's end was not alive in it.
    open(ledger, "late", APP1, 1, 3 * S);
    book(ledger, S, 2 * S, 2_000_000, 0, Map.of());
    assertEquals(7_000_000, ledger.nodeIdleMicrojoules());
    assertEquals(0, energy(ledger, "late").energyMicrojoules());
  }

  @Test
  void book_dynamicEnergy_followsCpuTimeDeltas() {
    EnergyLedger ledger = new EnergyLedger();
    open(ledger, "a", APP1, 1, 0);
    open(ledger, "b", APP1, 1, 0);
    // Both started in this interval: all their CPU time so far is this interval's: 3000 : 1000.
    Map<String, Long> perApp = book(ledger, 0, S, 4_000_000, 0, Map.of("a", 3_000L, "b", 1_000L));
    assertEquals(3_000_000, energy(ledger, "a").energyMicrojoules());
    assertEquals(1_000_000, energy(ledger, "b").energyMicrojoules());
    assertEquals(Map.of(APP1, 4_000_000L), perApp);

    // Deltas 3000 : 9000 = 1 : 3 (cumulative totals would be 6000 : 10000 = 3 : 5).
    // Idle 2 J by vcores 1:1 -> 1 J each; dynamic 6 J by CPU 1:3 -> 1.5 J and 4.5 J.
    book(ledger, S, 2 * S, 8_000_000, 2_000_000, Map.of("a", 6_000L, "b", 10_000L));
    assertEquals(3_000_000 + 1_000_000 + 1_500_000, energy(ledger, "a").energyMicrojoules());
    assertEquals(1_000_000 + 1_000_000 + 4_500_000, energy(ledger, "b").energyMicrojoules());
    assertEquals(1_000_000, energy(ledger, "a").idleMicrojoules());
    assertEquals(1_000_000, energy(ledger, "b").idleMicrojoules());

    // CPU deltas 3 : 1 on 10 J with 2 J idle: idle 1 J each, dynamic 8 J -> 6 J and 2 J.
    book(ledger, 2 * S, 3 * S, 10_000_000, 2_000_000,
        Map.of("a", 6_000L + 300_000_000L, "b", 10_000L + 100_000_000L));
    assertEquals(5_500_000 + 7_000_000, energy(ledger, "a").energyMicrojoules());
    assertEquals(6_500_000 + 3_000_000, energy(ledger, "b").energyMicrojoules());
  }

  @Test
  void book_idleEnergy_splitByVcores() {
    EnergyLedger ledger = new EnergyLedger();
    open(ledger, "two", APP1, 2, 0);
    open(ledger, "one", APP1, 1, 0);
    // All idle: 9 J by vcores 2 : 1.
    book(ledger, 0, S, 9_000_000, 9_000_000, Map.of("two", 100L, "one", 100L));
    assertEquals(6_000_000, energy(ledger, "two").energyMicrojoules());
    assertEquals(6_000_000, energy(ledger, "two").idleMicrojoules());
    assertEquals(3_000_000, energy(ledger, "one").energyMicrojoules());
    assertEquals(3_000_000, energy(ledger, "one").idleMicrojoules());

    // 3 J idle by vcores (2 J, 1 J), 6 J dynamic by equal CPU deltas (3 J, 3 J).
    book(ledger, S, 2 * S, 9_000_000, 3_000_000, Map.of("two", 200L, "one", 200L));
    assertEquals(6_000_000 + 5_000_000, energy(ledger, "two").energyMicrojoules());
    assertEquals(6_000_000 + 2_000_000, energy(ledger, "two").idleMicrojoules());
    assertEquals(3_000_000 + 4_000_000, energy(ledger, "one").energyMicrojoules());
    assertEquals(3_000_000 + 1_000_000, energy(ledger, "one").idleMicrojoules());
  }

  @Test
  void book_containerStartedHalfway_halfIdleWeight() {
    EnergyLedger ledger = new EnergyLedger();
    open(ledger, "whole", APP1, 1, 0);
    open(ledger, "half", APP2, 1, S / 2);
    Map<String, Long> perApp = book(ledger, 0, S, 3_000_000, 3_000_000, Map.of());
    assertEquals(2_000_000, energy(ledger, "whole").idleMicrojoules());
    assertEquals(1_000_000, energy(ledger, "half").idleMicrojoules());
    assertEquals(Map.of(APP1, 2_000_000L, APP2, 1_000_000L), perApp);
  }

  @Test
  void book_oneContainerUnreadable_everythingByAllocation() {
    EnergyLedger ledger = new EnergyLedger();
    open(ledger, "a", APP1, 3, 0);
    open(ledger, "b", APP1, 1, 0);
    book(ledger, 0, S, 4_000_000, 0, Map.of("a", 0L, "b", 0L)); // no CPU used: by allocation
    assertEquals(3_000_000, energy(ledger, "a").energyMicrojoules());
    assertEquals(1_000_000, energy(ledger, "b").energyMicrojoules());

    // "a" burnt CPU, but "b" (still running) could not be read: CPU shares would be unfair, so
    // idle 4 J and dynamic 4 J both go 3 : 1 by vcores.
    book(ledger, S, 2 * S, 8_000_000, 4_000_000, Map.of("a", 500_000_000L));
    assertEquals(3_000_000 + 6_000_000, energy(ledger, "a").energyMicrojoules());
    assertEquals(1_000_000 + 2_000_000, energy(ledger, "b").energyMicrojoules());

    // Both readable again: a used 100 ms, b none -> a gets all the dynamic part.
    book(ledger, 2 * S, 3 * S, 8_000_000, 4_000_000, Map.of("a", 600_000_000L, "b", 0L));
    assertEquals(9_000_000 + 3_000_000 + 4_000_000, energy(ledger, "a").energyMicrojoules());
    assertEquals(3_000_000 + 1_000_000, energy(ledger, "b").energyMicrojoules());
  }

  @Test
  void book_containerStopped_retiresAfterIntervalCoveringStop() {
    EnergyLedger ledger = new EnergyLedger();
    open(ledger, "a", APP1, 1, 0);
    open(ledger, "b", APP1, 1, 0);
    book(ledger, 0, S, 2_000_000, 0, Map.of());
    stop(ledger, "a", S + S / 2);
    stop(ledger, "b", 2 * S + S / 2);
    assertEquals(Set.of(), running(ledger), "stopped containers are not read for CPU time");
    assertEquals(2, ledger.liveCount());

    // a alive half of [1 s, 2 s], b all of it: 3 J split 1 : 2.
    book(ledger, S, 2 * S, 3_000_000, 0, Map.of());
    assertEquals(2_000_000, energy(ledger, "a").energyMicrojoules());
    assertEquals(1_000_000 + 2_000_000, energy(ledger, "b").energyMicrojoules());
    assertEquals(1, ledger.liveCount(), "a retired, b's stop is in the next interval");

    // Only b was alive in [2 s, 3 s] (for half of it): the whole interval is its.
    book(ledger, 2 * S, 3 * S, 3_000_000, 1_000_000, Map.of());
    assertEquals(6_000_000, energy(ledger, "b").energyMicrojoules());
    assertEquals(0, ledger.liveCount());

    book(ledger, 3 * S, 4 * S, 1_000_000, 1_000_000, Map.of());
    assertEquals(1_000_000, ledger.nodeIdleMicrojoules());
    // Retired accounts stay answerable until their application is forgotten.
    assertEquals(2_000_000, energy(ledger, "a").energyMicrojoules());
    assertEquals(6_000_000, energy(ledger, "b").energyMicrojoules());
    assertEquals(2, energy(ledger, "a").samples());
    assertEquals(3, energy(ledger, "b").samples());
    assertEquals(List.of("a", "b"), ledger.applicationRecords(APP1).stream()
        .map(ContainerRecord::containerId).toList());
    assertTrue(ledger.applicationRecords(APP1).stream().allMatch(r -> r.stopMillis() >= 0));
  }

  @Test
  void book_gapAndEstimateFlags_reachAccounts() {
    EnergyLedger ledger = new EnergyLedger();
    open(ledger, "a", APP1, 1, 0);
    ledger.book(new Interval(0, S, 1_000, 0, Map.of(), true, false));
    ledger.book(new Interval(S, 2 * S, 1_000, 0, Map.of(), false, true));
    ledger.book(new Interval(2 * S, 3 * S, 1_000, 0, Map.of(), false, false));
    ContainerEnergy e = energy(ledger, "a");
    assertEquals(3, e.samples());
    assertEquals(1, e.gaps());
    assertTrue(e.estimated());
  }

  @Test
  void open_duplicate_ignored() {
    EnergyLedger ledger = new EnergyLedger();
    open(ledger, "a", APP1, 1, 0);
    book(ledger, 0, S, 1_000_000, 0, Map.of());
    open(ledger, "a", APP2, 8, S); // NodeManager recovery announcing it again
    assertEquals(1_000_000, energy(ledger, "a").energyMicrojoules());
    assertEquals(1, ledger.liveCount());
    assertEquals(1, ledger.applicationRecords(APP1).size());
    assertTrue(ledger.applicationRecords(APP2).isEmpty());
  }

  @Test
  void forgetApplication_dropsOnlyItsFinishedAccounts() {
    EnergyLedger ledger = new EnergyLedger();
    open(ledger, "a1", APP1, 1, 0);
    open(ledger, "b1", APP1, 1, 0);
    open(ledger, "c2", APP2, 1, 0);
    book(ledger, 0, S, 3_000_000, 0, Map.of());
    stop(ledger, "a1", S);
    stop(ledger, "c2", S);
    book(ledger, S, 2 * S, 1_000_000, 0, Map.of()); // retires a1 and c2; all 1 J to b1

    ledger.forgetApplication(APP1);
    assertFalse(ledger.energyOf("a1").isPresent(), "finished account of APP1 is dropped");
    assertEquals(2_000_000, energy(ledger, "b1").energyMicrojoules(), "live one is kept");
    assertEquals(1_000_000, energy(ledger, "c2").energyMicrojoules(), "other app is kept");
    assertEquals(List.of("b1"), ledger.applicationRecords(APP1).stream()
        .map(ContainerRecord::containerId).toList());
    // a1's 1 J was written out, not lost: the totals still balance.
    assertEquals(4_000_000, ledger.attributedMicrojoules());
    assertEquals(ledger.meteredMicrojoules(),
        ledger.nodeIdleMicrojoules() + ledger.attributedMicrojoules());
  }

  @Test
  void restore_accountsBack_firstCpuReadingIsBaseline() {
    EnergyLedger before = new EnergyLedger();
    open(before, "a", APP1, 2, 0);
    open(before, "b", APP1, 1, 0);
    open(before, "c", APP2, 1, 0);
    book(before, 0, S, 4_000_000, 1_000_000, Map.of("a", 10L, "b", 10L, "c", 20L));
    before.book(new Interval(S, 2 * S, 2_000_000, 0, Map.of(), true, true));
    stop(before, "c", 2 * S);
    book(before, 2 * S, 3 * S, 1_000_000, 0, Map.of("a", 20L, "b", 20L));
    book(before, 3 * S, 4 * S, 700_000, 700_000, Map.of());

    EnergyLedger after = new EnergyLedger();
    after.restore(before.state(), 1_000 * S);
    assertEquals(before.meteredMicrojoules(), after.meteredMicrojoules());
    assertEquals(4_000_000 + 2_000_000 + 1_000_000 + 700_000, after.meteredMicrojoules());
    assertEquals(before.nodeIdleMicrojoules(), after.nodeIdleMicrojoules());
    for (String id : List.of("a", "b", "c")) {
      assertEquals(energy(before, id), energy(after, id), id);
    }
    assertEquals(Set.of("a", "b"), running(after), "c was finished, a and b come back running");
    assertEquals(2, after.liveCount());
    assertEquals(before.attributedMicrojoules(), after.attributedMicrojoules());
    ContainerEnergy a0 = energy(after, "a");
    ContainerEnergy b0 = energy(after, "b");
    assertEquals(1, a0.gaps(), "the gap interval was counted for a");
    assertEquals(1, b0.gaps(), "and for b");
    assertEquals(4, a0.samples());
    assertTrue(a0.estimated());

    // First interval after the restart: cumulative CPU 9 s vs 1 s is NOT this interval's use;
    // the split falls back to allocation, 2 : 1 by vcores.
    book(after, 1_000 * S, 1_001 * S, 3_000_000, 0,
        Map.of("a", 9_000_000_000L, "b", 1_000_000_000L));
    assertEquals(a0.energyMicrojoules() + 2_000_000, energy(after, "a").energyMicrojoules());
    assertEquals(b0.energyMicrojoules() + 1_000_000, energy(after, "b").energyMicrojoules());

    // Now the baseline is known: deltas 0.1 s : 0.3 s -> 1 : 3.
    book(after, 1_001 * S, 1_002 * S, 4_000_000, 0,
        Map.of("a", 9_100_000_000L, "b", 1_300_000_000L));
    assertEquals(a0.energyMicrojoules() + 3_000_000, energy(after, "a").energyMicrojoules());
    assertEquals(b0.energyMicrojoules() + 4_000_000, energy(after, "b").energyMicrojoules());
    assertEquals(after.meteredMicrojoules(),
        after.nodeIdleMicrojoules() + after.attributedMicrojoules());
  }

  @Test
  void state_listsEveryAccountOnce() {
    EnergyLedger ledger = new EnergyLedger();
    open(ledger, "a", APP1, 1, 0);
    open(ledger, "b", APP1, 1, 0);
    book(ledger, 0, S, 2_000_000, 0, Map.of());
    stop(ledger, "a", S);
    book(ledger, S, 2 * S, 2_000_000, 0, Map.of());
    LedgerState state = ledger.state();
    assertEquals(4_000_000, state.meteredMicrojoules());
    assertEquals(0, state.nodeIdleMicrojoules());
    Map<String, ContainerRecord> byId = new HashMap<>();
    state.containers().forEach(r -> byId.put(r.containerId(), r));
    assertEquals(2, state.containers().size());
    assertEquals(1_000_000, byId.get("a").energyMicrojoules());
    assertEquals(3_000_000, byId.get("b").energyMicrojoules());
    assertTrue(byId.get("a").stopMillis() >= 0);
    assertEquals(-1, byId.get("b").stopMillis());
    assertEquals(new HashSet<>(List.of("a", "b")), byId.keySet());
  }
}

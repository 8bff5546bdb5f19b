package org.fawnpack.energy.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.fawnpack.energy.ContainerEnergy;
import org.fawnpack.energy.cpu.ContainerCpuSource;
import org.fawnpack.energy.cpu.ContainerProcessKey;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class NodeSamplerTest {
  private static final String APP1 = "application_1700000000000_0001";
  private static final String APP2 = "application_1700000000000_0002";
  private static final long START_MILLIS = 1_700_000_000_000L;

  private final FakeClock clock = new FakeClock(1_000_000_000_000L, START_MILLIS);
  private final EnergyLedger ledger = new EnergyLedger();
  private final PowerHistory history = new PowerHistory(1000);
  private final Map<String, Long> cpu = new ConcurrentHashMap<>();
  private final List<List<String>> cpuRequests = new CopyOnWriteArrayList<>();
  private final ContainerCpuSource cpuSource = containers -> {
    List<String> ids = new ArrayList<>();
    Map<String, Long> answer = new HashMap<>();
    for (ContainerProcessKey key : containers) {
      ids.add(key.containerId());
      Long value = cpu.get(key.containerId());
      if (value != null) {
        answer.put(key.containerId(), value);
      }
    }
    cpuRequests.add(ids);
    return answer;
  };
  private final List<NodeSampler> samplers = new ArrayList<>();
  private final CountDownLatch release = new CountDownLatch(1);

  @AfterEach
  void close() throws Exception {
    release.countDown();
    for (NodeSampler sampler : samplers) {
      sampler.close();
    }
  }

  private NodeSampler sampler(double idleWatts, ContainerCpuUtilisation utilisation,
      ScriptedMeter... meters) {
    List<MeterChannel> channels = new ArrayList<>();
    for (ScriptedMeter meter : meters) {
      channels.add(new MeterChannel(meter, 1, 20_000));
    }
    NodeSampler sampler = new NodeSampler(channels, ledger, cpuSource, history, clock, 200,
        idleWatts, utilisation);
    samplers.add(sampler);
    return sampler;
  }

  private void open(String id, String app, int vcores) {
    ledger.open(id, app, "TASK", vcores, 1024, clock.nanoTime(), clock.currentTimeMillis());
  }

  private ContainerEnergy energy(String id) {
    return ledger.energyOf(id).orElseThrow();
  }

  private void tickAfter(NodeSampler sampler, long millis) {
    clock.advanceMillis(millis);
    sampler.tick();
  }

  @Test
  void tick_bookedEnergy_trapezoidOfAllMeters() {
    NodeSampler sampler = sampler(Double.NaN, null,
        new ScriptedMeter("a").watts(10, 20, 14), new ScriptedMeter("b").watts(5, 5, 5));
    sampler.tick();
    assertEquals(0, ledger.meteredMicrojoules(), "the first tick only sets baselines");
    assertEquals(0, sampler.samples());

    tickAfter(sampler, 1000);
    // a: (10 + 20) / 2 * 1 s = 15 J; b: 5 J
    assertEquals(20_000_000, ledger.meteredMicrojoules());
    assertEquals(25, sampler.lastWatts(), 1e-9);

    tickAfter(sampler, 2000);
    // a: (20 + 14) / 2 * 2 s = 34 J; b: 10 J
    assertEquals(20_000_000 + 44_000_000, ledger.meteredMicrojoules());
    assertEquals(ledger.meteredMicrojoules(), ledger.nodeIdleMicrojoules(), "no containers");
    assertEquals(19, sampler.lastWatts(), 1e-9);
    assertEquals(2, sampler.samples());
    assertEquals(0, sampler.gapSamples());
    assertFalse(sampler.estimated());
  }

  @Test
  void tick_idleWattsConfigured_idlePartIsWattsTimesSeconds() {
    NodeSampler sampler = sampler(3.0, null, new ScriptedMeter("m").watts(5, 5, 5));
    sampler.tick();
    open("c1", APP1, 1);
    tickAfter(sampler, 2000);
    assertEquals(10_000_000, energy("c1").energyMicrojoules());
    assertEquals(6_000_000, energy("c1").idleMicrojoules(), "3 W x 2 s");
    tickAfter(sampler, 500);
    assertEquals(12_500_000, energy("c1").energyMicrojoules());
    assertEquals(7_500_000, energy("c1").idleMicrojoules(), "+ 3 W x 0.5 s");
  }

  @Test
  void tick_idlePart_cappedAtIntervalEnergy() {
    NodeSampler sampler = sampler(8.0, null, new ScriptedMeter("m").watts(5, 5));
    sampler.tick();
    open("c1", APP1, 1);
    tickAfter(sampler, 2000);
    assertEquals(10_000_000, energy("c1").energyMicrojoules());
    assertEquals(10_000_000, energy("c1").idleMicrojoules());
  }

  @Test
  void tick_idleLearned_lowestIntervalPowerSoFar() {
    NodeSampler sampler = sampler(Double.NaN, null,
        new ScriptedMeter("m").watts(10, 10, 6, 6, 8));
    sampler.tick();
    open("c1", APP1, 1);
    // Interval powers 10, 8, 6, 7 W; lowest so far 10, 8, 6, 6 W.
    long[] expectedIdle = {10_000_000, 18_000_000, 24_000_000, 30_000_000};
    long[] expectedEnergy = {10_000_000, 18_000_000, 24_000_000, 31_000_000};
    for (int i = 0; i < 4; i++) {
      tickAfter(sampler, 1000);
      assertEquals(expectedEnergy[i], energy("c1").energyMicrojoules(), "interval " + i);
      assertEquals(expectedIdle[i], energy("c1").idleMicrojoules(), "interval " + i);
    }
  }

  @Test
  void tick_gapInterval_flaggedAndNotLearnedAsIdle() {
    // A RAPL-like counter (50 W) that resets once, plus a steady 5 W meter.
    ScriptedMeter counter = new ScriptedMeter("rapl").joules(0, 50, 100, 20, 70);
    NodeSampler sampler = sampler(Double.NaN, null, counter, new ScriptedMeter("fan").watts(5, 5,
        5, 5, 5));
    sampler.tick();
    open("c1", APP1, 1);
    tickAfter(sampler, 1000); // 55 W
    tickAfter(sampler, 1000); // 55 W
    tickAfter(sampler, 1000); // counter went back: gap, only the fan's 5 J
    tickAfter(sampler, 1000); // 55 W again
    assertEquals(55_000_000 * 3L + 5_000_000, energy("c1").energyMicrojoules());
    // Idle 55 J, 55 J, min(55, 5) J, 55 J: the 5 W gap interval must not become the idle power
    // (that would make the last interval's idle 5 J).
    assertEquals(55_000_000 * 3L + 5_000_000, energy("c1").idleMicrojoules());
    assertEquals(4, sampler.samples());
    assertEquals(1, sampler.gapSamples());
    assertEquals(1, energy("c1").gaps());
    List<PowerHistory.Row> rows = history.forApplication(APP1);
    assertEquals(List.of(false, false, true, false),
        rows.stream().map(PowerHistory.Row::gap).toList());
  }

  @Test
  void tick_noMeters_everyIntervalAGap() {
    NodeSampler sampler = sampler(Double.NaN, null);
    sampler.tick();
    open("c1", APP1, 1);
    tickAfter(sampler, 1000);
    tickAfter(sampler, 1000);
    assertEquals(2, sampler.gapSamples());
    assertEquals(0, ledger.meteredMicrojoules());
    assertEquals(2, energy("c1").gaps());
  }

  @Test
  void tick_hungMeter_gapWithoutStalling() {
    ScriptedMeter hung = new ScriptedMeter("hung").watts(10).hang(release, 10);
    NodeSampler sampler = sampler(Double.NaN, null, hung, new ScriptedMeter("ok").watts(4, 4));
    sampler.tick();
    long t0 = System.nanoTime();
    tickAfter(sampler, 1000);
    long took = System.nanoTime() - t0;
    assertTrue(took < TimeUnit.SECONDS.toNanos(3), "tick waited " + took + " ns for a 200 ms timeout");
    assertEquals(1, sampler.gapSamples());
    // The hung meter holds its 10 W for the interval; the other meter reads 4 W.
    assertEquals(14_000_000, ledger.meteredMicrojoules());
  }

  @Test
  void tick_runningContainers_cpuTimesReachLedger() {
    ContainerCpuUtilisation utilisation = new ContainerCpuUtilisation(2);
    NodeSampler sampler = sampler(0.0, utilisation, new ScriptedMeter("m").watts(8, 8, 8, 8));
    open("a", APP1, 1);
    open("b", APP1, 1);
    cpu.put("a", 0L);
    cpu.put("b", 0L);
    sampler.tick();
    cpu.put("a", 750_000_000L);
    cpu.put("b", 250_000_000L);
    tickAfter(sampler, 1000);
    // Both were opened at the interval's start, so all their CPU time is this interval's: 3 : 1.
    assertEquals(6_000_000, energy("a").energyMicrojoules());
    assertEquals(2_000_000, energy("b").energyMicrojoules());
    assertEquals(0, energy("a").idleMicrojoules(), "idle power configured as 0 W");
    // 1 s of CPU over 1 s x 2 vcores.
    assertEquals(0.5, utilisation.sinceLastCall(), 1e-9);

    cpu.put("a", 750_000_000L + 100_000_000L);
    cpu.put("b", 250_000_000L + 300_000_000L);
    tickAfter(sampler, 1000);
    // Deltas 1 : 3 (the cumulative times would be 17 : 11).
    assertEquals(6_000_000 + 2_000_000, energy("a").energyMicrojoules());
    assertEquals(2_000_000 + 6_000_000, energy("b").energyMicrojoules());
    assertEquals(List.of("a", "b"), cpuRequests.get(cpuRequests.size() - 1));
    ledger.markStopped("b", clock.nanoTime(), clock.currentTimeMillis());
    tickAfter(sampler, 1000);
    assertEquals(List.of("a"), cpuRequests.get(cpuRequests.size() - 1),
        "a stopped container is not read");
  }

  @Test
  void tick_cpuShares_splitDynamicPart() {
    NodeSampler sampler = sampler(2.0, null, new ScriptedMeter("m").watts(10, 10, 10));
    open("a", APP1, 1);
    open("b", APP1, 1);
    cpu.put("a", 0L);
    cpu.put("b", 0L);
    sampler.tick();
    tickAfter(sampler, 1000); // baselines for the CPU times (allocation: 5 J each)
    cpu.put("a", 300_000_000L);
    cpu.put("b", 100_000_000L);
    tickAfter(sampler, 1000);
    // 10 J: idle 2 J -> 1 J each; dynamic 8 J by CPU 3 : 1 -> 6 J and 2 J.
    assertEquals(5_000_000 + 7_000_000, energy("a").energyMicrojoules());
    assertEquals(5_000_000 + 3_000_000, energy("b").energyMicrojoules());
  }

  @Test
  void tickIfOlderThan_lastTickRecent_skips() {
    ScriptedMeter meter = new ScriptedMeter("m").watts(10, 10, 10, 10);
    NodeSampler sampler = sampler(Double.NaN, null, meter);
    long fifty = TimeUnit.MILLISECONDS.toNanos(50);
    sampler.tickIfOlderThan(fifty); // never ticked: ticks
    assertEquals(1, meter.calls());
    clock.advanceMillis(10);
    sampler.tickIfOlderThan(fifty);
    assertEquals(1, meter.calls(), "10 ms old sample is fresh enough");
    assertEquals(0, sampler.samples());
    clock.advanceMillis(40);
    sampler.tickIfOlderThan(fifty);
    assertEquals(2, meter.calls());
    assertEquals(1, sampler.samples());
    assertEquals(500_000, ledger.meteredMicrojoules(), "10 W x 50 ms");
  }

  @Test
  void history_application_powerRows() {
    NodeSampler sampler = sampler(Double.NaN, null,
        new ScriptedMeter("m").watts(10, 10, 20, 20, 20));
    sampler.tick();
    tickAfter(sampler, 1000); // 10 J, nobody
    tickAfter(sampler, 1000); // 15 J, nobody
    open("c1", APP1, 1);
    tickAfter(sampler, 1000); // 20 J, all c1
    open("c2", APP2, 1);
    tickAfter(sampler, 1000); // 20 J, 10 J each
    List<PowerHistory.Row> app1 = history.forApplication(APP1);
    assertEquals(List.of(
        new PowerHistory.Row(START_MILLIS + 2000, 20, 15_000_000, 0, false),
        new PowerHistory.Row(START_MILLIS + 3000, 20, 20_000_000, 20_000_000, false),
        new PowerHistory.Row(START_MILLIS + 4000, 20, 20_000_000, 10_000_000, false)), app1);
    List<PowerHistory.Row> app2 = history.forApplication(APP2);
    assertEquals(List.of(
        new PowerHistory.Row(START_MILLIS + 3000, 20, 20_000_000, 0, false),
        new PowerHistory.Row(START_MILLIS + 4000, 20, 20_000_000, 10_000_000, false)), app2);
    assertTrue(history.forApplication("application_1_0009").isEmpty());
    assertEquals(4, history.size());
    history.forget(APP1);
    assertTrue(history.forApplication(APP1).isEmpty());
    assertEquals(2, history.forApplication(APP2).size());
  }

  @Test
  void history_manyTicks_ringBounded() {
    PowerHistory ring = new PowerHistory(3);
    for (int i = 0; i < 10; i++) {
      ring.add(i, i, i, false, i >= 2 ? Map.of(APP1, (long) i) : Map.of());
    }
    assertEquals(3, ring.size());
    List<PowerHistory.Row> rows = ring.forApplication(APP1);
    assertEquals(List.of(7L, 8L, 9L), rows.stream().map(PowerHistory.Row::appMicrojoules).toList());
  }
}

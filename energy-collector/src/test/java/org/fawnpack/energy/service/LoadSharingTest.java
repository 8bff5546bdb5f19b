package org.fawnpack.energy.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.DatagramSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.hadoop.conf.Configuration;
import org.fawnpack.energy.meter.EnergyConfigException;
import org.fawnpack.energy.meter.MeterSpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A box of seven boards on one supply, split by load (seed 003's Edison boxes): seven
 * collectors' shares exchanging their CPU figures over real UDP sockets on loopback, each
 * reading the same supply. One board busy, six idle: the supply draws 7 x 1.40 W idle plus
 * 0.28 W for the busy board (the Edison's 1.68 W busy). The busy host must book its idle
 * seventh plus at least 90 % of the 0.28 W; the seven bookings must add up to the supply's
 * energy within 0.1 %. With {@code equal}, the busy host would have booked a seventh of it.
 */
class LoadSharingTest {
  private static final int HOSTS = 7;
  private static final double IDLE = 7 * 1.40;
  private static final double BUSY_EXTRA = 0.28;
  private final List<LoadSharing> sharings = new ArrayList<>();

  @AfterEach
  void close() throws IOException {
    for (LoadSharing s : sharings) {
      s.close();
    }
  }

  private static int[] freeUdpPorts(int n) throws IOException {
    int[] ports = new int[n];
    List<DatagramSocket> held = new ArrayList<>();
    try {
      for (int i = 0; i < n; i++) {
        DatagramSocket s = new DatagramSocket(0);
        held.add(s);
        ports[i] = s.getLocalPort();
      }
    } finally {
      held.forEach(DatagramSocket::close);
    }
    return ports;
  }

  private static MeterSpec spec(String hosts, String idle) {
    Configuration conf = new Configuration(false);
    conf.set("fawn.energy.meter.box3.type", "model");
    conf.set("fawn.energy.meter.box3.share", "load");
    conf.set("fawn.energy.meter.box3.hosts", hosts);
    if (idle != null) {
      conf.set("fawn.energy.meter.box3.shared-idle-watts", idle);
    }
    return new MeterSpec("box3", conf);
  }

  @Test
  void oneBusyBoard_booksItsIdleSeventhAndTheDynamicPower_theSevenAddUp() throws Exception {
    int[] ports = freeUdpPorts(HOSTS);
    String hosts = IntStream.of(ports).mapToObj(p -> "127.0.0.1:" + p)
        .collect(Collectors.joining(","));
    List<MeterChannel> channels = new ArrayList<>();
    List<ScriptedMeter> supplies = new ArrayList<>();
    for (int i = 0; i < HOSTS; i++) {
      LoadSharing sharing = new LoadSharing("127.0.0.1", ports[i], 3_000_000_000L);
      sharings.add(sharing);
      ScriptedMeter supply = new ScriptedMeter("box3");
      supplies.add(supply);
      channels.add(new MeterChannel(supply, sharing.add(spec(hosts, Double.toString(IDLE))),
          20_000));
      sharing.start();
    }
    double[] booked = new double[HOSTS];
    double metered = 0;
    int rounds = 6;
    for (int round = 0; round <= rounds; round++) {
      for (int i = 0; i < HOSTS; i++) {
        sharings.get(i).interval(i == 0 ? 1.0 : 0.0); // host 0 busy, the others idle
      }
      awaitFigures(round);
      for (int i = 0; i < HOSTS; i++) {
        supplies.get(i).watts(IDLE + BUSY_EXTRA);
        MeterChannel c = channels.get(i);
        c.begin();
        ChannelSample s = c.complete(round == 0 ? 0 : 1, System.nanoTime() + 5_000_000_000L);
        booked[i] += s.joules();
      }
      metered += round == 0 ? 0 : IDLE + BUSY_EXTRA; // a second at constant power
    }
    double idleSeventh = IDLE / HOSTS * rounds;
    assertTrue(booked[0] >= idleSeventh + 0.9 * BUSY_EXTRA * rounds,
        "busy host booked " + booked[0] + " J of " + metered);
    for (int i = 1; i < HOSTS; i++) {
      assertEquals(idleSeventh, booked[i], 0.1 * BUSY_EXTRA * rounds / HOSTS,
          "idle host " + i);
    }
    double sum = java.util.Arrays.stream(booked).sum();
    assertEquals(metered, sum, metered * 0.001, "the seven bookings add up to the supply");
  }

  /** Datagrams on loopback arrive in microseconds; wait, bounded, for every peer's figure. */
  private void awaitFigures(int round) throws InterruptedException {
    long deadline = System.nanoTime() + 5_000_000_000L;
    for (LoadShares s : sharingShares()) {
      while (!s.hasEveryPeer() && System.nanoTime() < deadline) {
        Thread.sleep(2);
      }
    }
  }

  private List<LoadShares> sharingShares() {
    return sharings.stream().flatMap(s -> s.meters().stream()).toList();
  }

  @Test
  void noFreshFigureFromAPeer_theDynamicPartSplitEqually_andCounted() throws Exception {
    int[] ports = freeUdpPorts(2);
    LoadSharing alone = new LoadSharing("127.0.0.1", ports[0], 1_000_000L);
    sharings.add(alone);
    LoadShares shares = alone.add(spec("127.0.0.1:" + ports[0] + ",127.0.0.1:" + ports[1],
        "2.8"));
    alone.interval(1.0);
    assertEquals(1.4 + 0.3 / 2, shares.ofWatts(3.1), 1e-9, "no peer figure: equal");
    assertEquals(1, shares.equalSplits());
  }

  @Test
  void badHostsList_refusedNamingTheKey() throws Exception {
    LoadSharing sharing = new LoadSharing("edison-9", 18_042, 1_000_000L);
    sharings.add(sharing);
    EnergyConfigException notListed = assertThrows(EnergyConfigException.class,
        () -> sharing.add(spec("edison-1,edison-2", null)));
    assertEquals("fawn.energy.meter.box3.hosts", notListed.key());
    assertThrows(EnergyConfigException.class, () -> sharing.add(spec("edison-9:x,edison-1",
        null)));
    assertThrows(EnergyConfigException.class, () -> sharing.add(spec("edison-9", null)),
        "a meter of one host has nothing to share");
  }

  @Test
  void loadPortTaken_startFailsNamingTheKey() throws Exception {
    try (DatagramSocket taken = new DatagramSocket(0)) {
      LoadSharing sharing = new LoadSharing("127.0.0.1", taken.getLocalPort(), 1_000_000L);
      sharings.add(sharing);
      sharing.add(spec("127.0.0.1:" + taken.getLocalPort() + ",127.0.0.1:1", "1"));
      IOException e = assertThrows(IOException.class, sharing::start);
      assertTrue(e.getMessage().contains("fawn.energy.load.port"), e.getMessage());
    }
  }
}

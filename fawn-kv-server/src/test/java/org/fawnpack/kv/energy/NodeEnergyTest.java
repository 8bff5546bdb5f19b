package org.fawnpack.kv.energy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The two energy sources: the power model against figures worked out by hand, and the
 * collector's NODE query against a real loopback server speaking the collector's protocol.
 */
class NodeEnergyTest {
  private static final long SECOND = 1_000_000_000L;

  @Test
  void model_integratesIdleThenBusyThenHalfBusyPower() {
    AtomicLong clock = new AtomicLong();
    AtomicLong cpu = new AtomicLong();
    ModelNodeEnergy model = new ModelNodeEnergy(1.40, 1.68, 2, cpu::get, clock::get, false);
    clock.addAndGet(10 * SECOND); // 10 s at idle (nothing known yet): 14 J
    model.sample();
    assertEquals(14_000_000, model.microjoules());
    clock.addAndGet(10 * SECOND);
    cpu.addAndGet(20 * SECOND); // both CPUs busy for those 10 s: still idle power till sampled
    model.sample();
    assertEquals(28_000_000, model.microjoules());
    clock.addAndGet(10 * SECOND); // 10 s at the busy power just measured: 16.8 J
    cpu.addAndGet(10 * SECOND); // half the CPUs
    model.sample();
    assertEquals(44_800_000, model.microjoules());
    clock.addAndGet(5 * SECOND); // 5 s at (1.40 + 0.5 * 0.28) W = 7.7 J, read between samples
    assertEquals(52_500_000, model.microjoules());
    assertTrue(model.estimated());
    assertThrows(IllegalArgumentException.class, () -> new ModelNodeEnergy(2, 1));
  }

  /** A one-answer server on loopback speaking the collector's NODE line. */
  private static int serve(ServerSocket server, String answer) {
    Thread t = new Thread(() -> {
      try (Socket s = server.accept()) {
        String request = new BufferedReader(new InputStreamReader(s.getInputStream(),
            StandardCharsets.UTF_8)).readLine();
        OutputStream out = s.getOutputStream();
        out.write(((request.equals("NODE") ? answer : "ERR unknown") + "\n")
            .getBytes(StandardCharsets.UTF_8));
        out.flush();
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    });
    t.setDaemon(true);
    t.start();
    return server.getLocalPort();
  }

  @Test
  void collector_nodeAnswer_givesMeteredMicrojoules_andWhetherAModelMetered() throws Exception {
    try (ServerSocket server = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
      CollectorNodeEnergy energy = new CollectorNodeEnergy(serve(server,
          "OK watts=3.5 metered_uj=123456 node_idle_uj=10 attributed_uj=5 samples=4 gaps=0"
          + " containers=0 meters=pdu:snmp"));
      assertEquals(123456, energy.microjoules());
      assertFalse(energy.estimated());
      serve(server, "OK watts=1.4 metered_uj=99 samples=1 gaps=0 containers=0"
          + " meters=board:model");
      assertEquals(99, energy.microjoules());
      assertTrue(energy.estimated());
      serve(server, "OK watts=1.4 samples=1");
      IOException e = assertThrows(IOException.class, energy::microjoules);
      assertTrue(e.getMessage().contains("port " + server.getLocalPort())
          && e.getMessage().contains("without metered_uj"), e.getMessage());
    }
  }
}

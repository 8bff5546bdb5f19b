package org.fawnpack.energy.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.metrics2.AbstractMetric;
import org.apache.hadoop.metrics2.MetricsRecord;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.impl.MetricsCollectorImpl;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.api.ApplicationTerminationContext;
import org.apache.hadoop.yarn.server.api.ContainerInitializationContext;
import org.apache.hadoop.yarn.server.api.ContainerTerminationContext;
import org.fawnpack.energy.CollectorClient;
import org.fawnpack.energy.ContainerEnergy;
import org.fawnpack.energy.EnergyProtocol;
import org.fawnpack.energy.cpu.ContainerCpuSource;
import org.fawnpack.energy.cpu.ContainerProcessKey;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The real service lifecycle: Hadoop Configuration, timer, query port, history, recovery, metrics. */
class EnergyCollectorServiceTest {
  private static final long APP_TS = 1_700_000_000_000L;
  private static final long WAIT_MS = 10_000;
  private static final long MICRO = 1_000_000L;

  @TempDir
  Path tmp;
  private Path wattsFile;
  private final List<EnergyCollectorService> services = new ArrayList<>();
  /** The system clock, which the test can stop for a moment to give events one instant. */
  private static final class FreezableClock implements EnergyClock {
    private volatile boolean frozen;
    private volatile long frozenNanos;

    long freeze() {
      frozenNanos = System.nanoTime();
      frozen = true;
      return frozenNanos;
    }

    void thaw() {
      frozen = false;
    }

    @Override
    public long nanoTime() {
      return frozen ? frozenNanos : System.nanoTime();
    }

    @Override
    public long currentTimeMillis() {
      return System.currentTimeMillis();
    }
  }

  private final FreezableClock clock = new FreezableClock();
  /** CPU times the test hands the service; containers absent from it are unreadable. */
  private final Map<String, Long> cpu = new ConcurrentHashMap<>();
  private final ContainerCpuSource cpuSource = containers -> {
    Map<String, Long> answer = new HashMap<>();
    for (ContainerProcessKey key : containers) {
      Long value = cpu.get(key.containerId());
      if (value != null) {
        answer.put(key.containerId(), value);
      }
    }
    return answer;
  };

  @BeforeEach
  void wattsFile() throws IOException {
    wattsFile = tmp.resolve("watts");
    setWatts(10);
  }

  @AfterEach
  void stopServices() {
    for (EnergyCollectorService service : services) {
      service.stop();
    }
  }

  /** Rewrites the meter's file atomically, so the meter never reads a half-written number. */
  private void setWatts(double watts) throws IOException {
    Path next = tmp.resolve("watts.next");
    Files.writeString(next, Double.toString(watts), StandardCharsets.UTF_8);
    Files.move(next, wattsFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  private Configuration conf() {
    Configuration conf = new Configuration();
    conf.set("fawn.energy.meters", "test");
    conf.set("fawn.energy.meter.test.type", FileWattsMeter.class.getName());
    conf.set("fawn.energy.meter.test.file", wattsFile.toString());
    conf.set("fawn.energy.sample-interval-ms", "100");
    conf.set("fawn.energy.meter-timeout-ms", "90");
    conf.set("fawn.energy.node.name", "node1");
    conf.set("fawn.energy.history.dir", tmp.resolve("history").toUri().toString());
    conf.set("fawn.energy.ledger.checkpoint-ms", "200");
    return conf;
  }

  private EnergyCollectorService start(Configuration conf, Path recovery) {
    EnergyCollectorService service = new EnergyCollectorService(clock, cpuSource);
    if (recovery != null) {
      service.setRecoveryPath(new org.apache.hadoop.fs.Path(recovery.toUri()));
    }
    services.add(service);
    service.init(conf);
    service.start();
    return service;
  }

  /** A client on the port the service publishes, decoded the way a task decodes it. */
  private static CollectorClient client(EnergyCollectorService service) {
    ByteBuffer metadata = service.getMetaData().duplicate();
    byte[] bytes = new byte[metadata.remaining()];
    metadata.get(bytes);
    int port = EnergyProtocol.decodePort(Base64.getEncoder().encodeToString(bytes));
    return new CollectorClient(port, 5000);
  }

  private static ContainerId containerId(int app, int n) {
    return ContainerId.newContainerId(
        ApplicationAttemptId.newInstance(ApplicationId.newInstance(APP_TS, app), 1), n);
  }

  private static void open(EnergyCollectorService service, ContainerId id, int mb, int vcores) {
    service.initializeContainer(new ContainerInitializationContext("alice", id,
        Resource.newInstance(mb, vcores)));
  }

  private static void stop(EnergyCollectorService service, ContainerId id) {
    service.stopContainer(new ContainerTerminationContext("alice", id,
        Resource.newInstance(1024, 1)));
  }

  private static Map<String, String> node(CollectorClient client) throws IOException {
    Map<String, String> fields = new HashMap<>();
    for (String token : client.ask(EnergyProtocol.NODE).split(" ")) {
      int eq = token.indexOf('=');
      fields.put(token.substring(0, eq), token.substring(eq + 1));
    }
    return fields;
  }

  private static long nodeLong(CollectorClient client, String field) throws IOException {
    return Long.parseLong(node(client).get(field));
  }

  private static <T> T await(String what, Callable<T> probe, Predicate<T> done) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
    T last = null;
    while (System.nanoTime() < deadline) {
      last = probe.call();
      if (done.test(last)) {
        return last;
      }
      Thread.sleep(20);
    }
    throw new AssertionError("timed out waiting for " + what + "; last " + last);
  }

  private static void awaitSamples(CollectorClient client, long samples) throws Exception {
    await("samples >= " + samples, () -> nodeLong(client, "samples"), s -> s >= samples);
  }

  @Test
  void query_throughRealClient_answeredAndEnergyGrows() throws Exception {
    EnergyCollectorService service = start(conf(), null);
    CollectorClient client = client(service);
    awaitSamples(client, 1);
    ContainerId id = containerId(1, 2);
    open(service, id, 1024, 1);
    // Times on the service's own clock (the seam it measures with), not the test's.
    long openedAt = clock.nanoTime();

    ContainerEnergy first = await("energy", () -> client.containerEnergy(id.toString()),
        e -> e.energyMicrojoules() > 0 && e.samples() >= 2);
    // The energy must grow with the container's life: wait for three more of its samples.
    await("three more samples", () -> client.containerEnergy(id.toString()),
        e -> e.samples() >= first.samples() + 3);
    long askedAt = clock.nanoTime();
    ContainerEnergy second = client.containerEnergy(id.toString());
    long answeredAt = clock.nanoTime();

    assertTrue(second.energyMicrojoules() > first.energyMicrojoules(), first + " -> " + second);
    assertTrue(second.samples() > first.samples());
    assertTrue(second.idleMicrojoules() <= second.energyMicrojoules());
    // The node draws a steady 10 W and this is its only container: its account is 10 W times
    // its life, up to the sample the query takes when the last one is over 50 ms old, plus at
    // most the interval it was opened in.
    double lowerSeconds = (askedAt - openedAt) / 1e9 - 0.05;
    double upperSeconds = (answeredAt - openedAt) / 1e9 + 1.0;
    assertTrue(second.energyMicrojoules() >= Math.round(10 * lowerSeconds * MICRO) - 100,
        second + " below 10 W x " + lowerSeconds + " s");
    assertTrue(second.energyMicrojoules() <= Math.round(10 * upperSeconds * MICRO),
        second + " above 10 W x " + upperSeconds + " s");
    assertTrue(!second.estimated());

    IOException unknown = assertThrows(IOException.class,
        () -> client.containerEnergy(containerId(1, 99).toString()));
    assertTrue(unknown.getMessage().contains("'" + EnergyProtocol.ERR + " unknown container "),
        unknown.getMessage());
    IOException garbage = assertThrows(IOException.class, () -> client.ask("HELLO there"));
    assertTrue(garbage.getMessage().contains(EnergyProtocol.ERR), garbage.getMessage());

    Map<String, String> node = node(client);
    assertEquals(10.0, Double.parseDouble(node.get("watts")), 1e-9);
    assertEquals("1", node.get("containers"));
    long metered = Long.parseLong(node.get("metered_uj"));
    long nodeIdle = Long.parseLong(node.get("node_idle_uj"));
    long attributed = Long.parseLong(node.get("attributed_uj"));
    assertEquals(metered, nodeIdle + attributed, node.toString());
    assertTrue(attributed >= second.energyMicrojoules(), node + " vs " + second);
    assertTrue(node.get("meters").equalsIgnoreCase("test:" + FileWattsMeter.class.getName()),
        node.get("meters"));
    assertTrue(Long.parseLong(node.get("samples")) >= second.samples());

    setWatts(25);
    await("25 W", () -> node(client).get("watts"), w -> Double.parseDouble(w) == 25.0);
  }

  @Test
  void stopApplication_writesHistoryFile() throws Exception {
    EnergyCollectorService service = start(conf(), null);
    CollectorClient client = client(service);
    awaitSamples(client, 1);
    ContainerId big = containerId(7, 1);
    ContainerId small = containerId(7, 2);
    String app = big.getApplicationAttemptId().getApplicationId().toString();
    long startMillis = clock.currentTimeMillis();
    // Open (and later stop) both at one instant between two samples (the sampler's monitor keeps
    // its timer out meanwhile), so their lives cover exactly the same intervals.
    long openedNanos;
    synchronized (service.sampler()) {
      openedNanos = clock.freeze();
      open(service, big, 2048, 2);
      open(service, small, 1024, 1);
      clock.thaw();
    }
    await("samples of both", () -> client.containerEnergy(small.toString()),
        e -> e.samples() >= 6);
    long stoppedNanos;
    synchronized (service.sampler()) {
      stoppedNanos = clock.freeze();
      stop(service, big);
      stop(service, small);
      clock.thaw();
    }
    double lived = (stoppedNanos - openedNanos) / 1e9;
    await("both retired", () -> nodeLong(client, "containers"), c -> c == 0);
    ContainerEnergy bigEnergy = client.containerEnergy(big.toString());
    ContainerEnergy smallEnergy = client.containerEnergy(small.toString());
    long stopMillis = clock.currentTimeMillis();

    // CPU unreadable: everything by allocation, 2 vcores : 1 vcore, in every interval (each
    // split rounds by under 1 µJ, twice per interval: idle and dynamic part).
    long both = bigEnergy.energyMicrojoules() + smallEnergy.energyMicrojoules();
    assertEquals(bigEnergy.samples(), smallEnergy.samples());
    assertTrue(Math.abs(bigEnergy.energyMicrojoules() - 2 * smallEnergy.energyMicrojoules())
        <= 6 * bigEnergy.samples(), bigEnergy + " vs " + smallEnergy);
    // The node's steady 10 W over their lives (the only containers: the intervals at both ends
    // are wholly theirs), give or take 1 µJ of rounding per interval.
    assertTrue(both >= Math.round(10 * lived * MICRO) - bigEnergy.samples(),
        both + " µJ in " + lived + " s");
    assertTrue(both <= Math.round(10 * (lived + 1.0) * MICRO), both + " µJ in " + lived + " s");

    service.stopApplication(new ApplicationTerminationContext(
        big.getApplicationAttemptId().getApplicationId()));
    Path file = tmp.resolve("history").resolve(app).resolve("node1.csv");
    await("history file", () -> Files.exists(file), exists -> exists);
    // Written, then forgotten: the accounts leave the ledger once the file is safe.
    await("accounts forgotten", () -> service.ledger().energyOf(big.toString()).isPresent(),
        present -> !present);

    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    assertEquals("# fawn-energy history v1", lines.get(0));
    assertTrue(lines.get(1).startsWith("# node=node1 application=" + app + " interval_ms=100 "
        + "meters=test:"), lines.get(1));
    assertTrue(lines.get(1).endsWith(" estimated=false"), lines.get(1));
    long sumOfSamples = 0;
    long previousMillis = 0;
    int sampleRows = 0;
    Map<String, String[]> containers = new HashMap<>();
    for (String line : lines.subList(2, lines.size())) {
      String[] f = line.split(",", -1);
      if (f[0].equals("sample")) {
        assertEquals(6, f.length, line);
        long millis = Long.parseLong(f[1]);
        assertTrue(millis >= previousMillis, "samples in time order: " + line);
        previousMillis = millis;
        assertEquals("10.0000", f[2], line);
        long nodeUj = Long.parseLong(f[3]);
        long appUj = Long.parseLong(f[4]);
        assertTrue(appUj >= 0 && appUj <= nodeUj, line);
        sumOfSamples += appUj;
        sampleRows++;
      } else if (f[0].equals("container")) {
        assertEquals(12, f.length, line);
        containers.put(f[1], f);
      } else {
        fail("unexpected line " + line);
      }
    }
    assertTrue(sampleRows >= bigEnergy.samples(), sampleRows + " rows");
    assertEquals(2, containers.size());
    assertEquals(both, sumOfSamples, "the application's sample shares add up to its containers");

    String[] b = containers.get(big.toString());
    assertEquals(List.of("TASK", "2", "2048"), List.of(b[2], b[3], b[4]));
    String[] s = containers.get(small.toString());
    assertEquals(List.of("TASK", "1", "1024"), List.of(s[2], s[3], s[4]));
    for (String[] c : List.of(b, s)) {
      long start = Long.parseLong(c[5]);
      long stop = Long.parseLong(c[6]);
      assertTrue(start >= startMillis && start <= stop && stop <= stopMillis, String.join(",", c));
      assertEquals("false", c[11]);
      assertTrue(Long.parseLong(c[10]) <= Long.parseLong(c[9]), "gaps <= samples: "
          + String.join(",", c));
    }
    assertEquals(bigEnergy, new ContainerEnergy(Long.parseLong(b[7]), Long.parseLong(b[8]),
        Long.parseLong(b[9]), Long.parseLong(b[10]), Boolean.parseBoolean(b[11])));
    assertEquals(smallEnergy, new ContainerEnergy(Long.parseLong(s[7]), Long.parseLong(s[8]),
        Long.parseLong(s[9]), Long.parseLong(s[10]), Boolean.parseBoolean(s[11])));

    IOException forgotten = assertThrows(IOException.class,
        () -> client.containerEnergy(big.toString()));
    assertTrue(forgotten.getMessage().contains(EnergyProtocol.ERR));
  }

  @Test
  void restart_withRecoveryCheckpoint_accountsSurvive() throws Exception {
    Path recovery = tmp.resolve("recovery");
    EnergyCollectorService first = start(conf(), recovery);
    CollectorClient client1 = client(first);
    awaitSamples(client1, 1);
    ContainerId id = containerId(3, 1);
    open(first, id, 1024, 1);
    ContainerEnergy before = await("1 J", () -> client1.containerEnergy(id.toString()),
        e -> e.energyMicrojoules() >= MICRO);
    first.stop();
    long meteredBefore = first.ledger().meteredMicrojoules();
    assertTrue(Files.exists(recovery.resolve(LedgerStore.FILE_NAME)), "checkpoint written at stop");

    EnergyCollectorService second = start(conf(), recovery);
    CollectorClient client2 = client(second);
    ContainerEnergy restored = client2.containerEnergy(id.toString());
    assertTrue(restored.energyMicrojoules() >= before.energyMicrojoules(),
        before + " -> " + restored);
    assertTrue(restored.samples() >= before.samples());
    assertTrue(nodeLong(client2, "metered_uj") >= meteredBefore);
    // YARN announces its recovered containers again; that must not reset the account.
    open(second, id, 1024, 1);
    ContainerEnergy later = await("energy after restart",
        () -> client2.containerEnergy(id.toString()),
        e -> e.energyMicrojoules() > restored.energyMicrojoules() + MICRO / 2);
    assertTrue(later.samples() > restored.samples());
    Map<String, String> node = node(client2);
    assertEquals(Long.parseLong(node.get("metered_uj")),
        Long.parseLong(node.get("node_idle_uj")) + Long.parseLong(node.get("attributed_uj")));
  }

  @Test
  void start_damagedCheckpoint_serviceRuns() throws Exception {
    Path recovery = tmp.resolve("recovery");
    Files.createDirectories(recovery);
    Files.writeString(recovery.resolve(LedgerStore.FILE_NAME), "not a ledger\n");
    EnergyCollectorService service = start(conf(), recovery);
    CollectorClient client = client(service);
    awaitSamples(client, 2);
    assertEquals("0", node(client).get("containers"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"nosuchmeter", "com.example.NoSuchMeter", "java.lang.String",
      "org.fawnpack.energy.service.ThrowingConstructorMeter",
      "org.fawnpack.energy.service.BadStaticInitMeter"})
  void start_misconfiguredMeter_serviceRuns(String type) throws Exception {
    Configuration conf = conf();
    conf.set("fawn.energy.meter.test.type", type);
    EnergyCollectorService service = start(conf, null);
    CollectorClient client = client(service);
    awaitSamples(client, 1);
    ContainerId id = containerId(4, 1);
    open(service, id, 1024, 1);
    ContainerEnergy energy = await("gap samples", () -> client.containerEnergy(id.toString()),
        e -> e.samples() >= 3);
    assertEquals(energy.samples(), energy.gaps(), "every sample is a gap: " + energy);
    assertEquals(0, energy.energyMicrojoules());
    Map<String, String> node = node(client);
    assertEquals(node.get("samples"), node.get("gaps"), node.toString());
    assertEquals("0", node.get("metered_uj"));
  }

  @Test
  void start_meterMissingRequiredSetting_serviceRuns() throws Exception {
    Configuration conf = conf();
    conf.unset("fawn.energy.meter.test.file");
    EnergyCollectorService service = start(conf, null);
    CollectorClient client = client(service);
    awaitSamples(client, 3);
    Map<String, String> node = node(client);
    assertEquals(node.get("samples"), node.get("gaps"), node.toString());
  }

  @ParameterizedTest
  @ValueSource(strings = {"abc", "10", "0", "-100", "700000"})
  void init_invalidSampleInterval_failsNamingKey(String value) {
    Configuration conf = conf();
    conf.set("fawn.energy.sample-interval-ms", value);
    conf.unset("fawn.energy.meter-timeout-ms");
    EnergyCollectorService service = new EnergyCollectorService(EnergyClock.SYSTEM, cpuSource);
    services.add(service);
    RuntimeException e = assertThrows(RuntimeException.class, () -> service.init(conf));
    StringBuilder messages = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      messages.append(t.getMessage()).append(" | ");
    }
    assertTrue(messages.toString().contains("fawn.energy.sample-interval-ms"), messages.toString());
    assertTrue(messages.toString().contains(value), messages.toString());
  }

  @Test
  void init_meterTimeoutNotBelowInterval_fails() {
    Configuration conf = conf();
    conf.set("fawn.energy.meter-timeout-ms", "100");
    EnergyCollectorService service = new EnergyCollectorService(EnergyClock.SYSTEM, cpuSource);
    services.add(service);
    RuntimeException e = assertThrows(RuntimeException.class, () -> service.init(conf));
    assertTrue(e.getMessage().contains("fawn.energy.meter-timeout-ms"), e.getMessage());
  }

  private static double gauge(MetricsSource source, String name) {
    MetricsCollectorImpl collector = new MetricsCollectorImpl();
    source.getMetrics(collector, true);
    for (MetricsRecord record : collector.getRecords()) {
      for (AbstractMetric metric : record.metrics()) {
        if (metric.name().equals(name)) {
          return metric.value().doubleValue();
        }
      }
    }
    throw new AssertionError("no metric " + name);
  }

  @Test
  void metrics_meteredPower_tracked() throws Exception {
    EnergyCollectorService service = start(conf(), null);
    MetricsSource source = DefaultMetricsSystem.instance().getSource(EnergyMetricsSource.RECORD);
    assertNotNull(source, "FawnEnergy source registered");
    await("10 W", () -> gauge(source, "PowerWatts"), w -> w == 10.0);
    setWatts(37.5);
    await("37.5 W", () -> gauge(source, "PowerWatts"), w -> w == 37.5);
    assertTrue(gauge(source, "Samples") >= 1);
    assertTrue(gauge(source, "EnergyJoules") > 0);
    assertEquals(0, gauge(source, "Estimated"));
    service.stop();
    assertNull(DefaultMetricsSystem.instance().getSource(EnergyMetricsSource.RECORD),
        "unregistered at stop");
  }

  @Test
  void metrics_metricsSystemRunning_powerVisibleInJmx() throws Exception {
    DefaultMetricsSystem.initialize("FawnEnergyTest");
    try {
      setWatts(12.5);
      EnergyCollectorService service = start(conf(), null);
      CollectorClient client = client(service);
      await("12.5 W", () -> node(client).get("watts"), w -> Double.parseDouble(w) == 12.5);
      MBeanServer server = ManagementFactory.getPlatformMBeanServer();
      ObjectName name = new ObjectName("Hadoop:service=FawnEnergyTest,name="
          + EnergyMetricsSource.RECORD);
      assertTrue(server.isRegistered(name), "MBean " + name);
      // The MBean caches attributes for the metrics period (1 s in this test's properties file).
      await("JMX 12.5 W", () -> ((Number) server.getAttribute(name, "PowerWatts")).doubleValue(),
          w -> w == 12.5);
      setWatts(20);
      await("JMX 20 W", () -> ((Number) server.getAttribute(name, "PowerWatts")).doubleValue(),
          w -> w == 20.0);
      service.stop();
      assertTrue(!server.isRegistered(name), "MBean unregistered at stop");
    } finally {
      DefaultMetricsSystem.shutdown();
    }
  }
}

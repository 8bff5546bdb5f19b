package org.fawnpack.energy.service;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.api.ApplicationInitializationContext;
import org.apache.hadoop.yarn.server.api.ApplicationTerminationContext;
import org.apache.hadoop.yarn.server.api.AuxiliaryService;
import org.apache.hadoop.yarn.server.api.ContainerInitializationContext;
import org.apache.hadoop.yarn.server.api.ContainerTerminationContext;
import org.fawnpack.conf.InvalidConfigValueException;
import org.fawnpack.energy.ContainerEnergy;
import org.fawnpack.energy.EnergyKeys;
import org.fawnpack.energy.EnergyProtocol;
import org.fawnpack.energy.cpu.ContainerCpuSource;
import org.fawnpack.energy.cpu.CpuUtilisation;
import org.fawnpack.energy.meter.MeterSpec;
import org.fawnpack.energy.meter.PowerMeter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code fawn_energy} NodeManager auxiliary service. It samples the node's power meters every
 * {@code fawn.energy.sample-interval-ms}, integrates joules, splits them among the containers the
 * NodeManager announces, answers tasks on a loopback port (published as the service's metadata),
 * writes each application's history when it stops, checkpoints its ledger for NodeManager
 * recovery, and publishes node power as metrics.
 *
 * <p>It must never take the NodeManager down: a failing meter is a counted gap, a bad meter
 * configuration disables that meter (logged with its key), and only an unusable service
 * configuration (say, a query port already taken) fails the service's own start.
 */
public class EnergyCollectorService extends AuxiliaryService {
  private static final Logger LOG = LoggerFactory.getLogger(EnergyCollectorService.class);
  /** Queries arriving within this long of the last sample reuse it instead of reading meters again. */
  private static final long FRESH_SAMPLE_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

  private final EnergyClock clock;
  private final ContainerCpuSource cpuSourceOverride;

  private EnergySettings settings;
  private EnergyLedger ledger;
  private PowerHistory history;
  private NodeSampler sampler;
  private QueryServer queryServer;
  private ScheduledExecutorService timer;
  private HistoryWriter historyWriter;
  private NodeHistoryWriter nodeHistory; // null when fawn.energy.node-history.enabled=false
  private LoadSharing loadSharing;
  private LedgerStore ledgerStore;
  private String metricsName;
  private String meterSummary;

  public EnergyCollectorService() {
    this(EnergyClock.SYSTEM, null);
  }

  /** For tests: a clock and a CPU source of their own. */
  EnergyCollectorService(EnergyClock clock, ContainerCpuSource cpuSource) {
    super(EnergyProtocol.SERVICE_NAME);
    this.clock = clock;
    this.cpuSourceOverride = cpuSource;
  }

  @Override
  protected void serviceInit(Configuration conf) throws Exception {
    settings = EnergySettings.from(conf);
    ledger = new EnergyLedger();
    history = new PowerHistory(settings.historyMaxSamples());
    int vcores = conf.getInt(YarnConfiguration.NM_VCORES, YarnConfiguration.DEFAULT_NM_VCORES);
    ContainerCpuUtilisation containerUtilisation = new ContainerCpuUtilisation(vcores);
    String node = settings.nodeName().isEmpty() ? NodeNames.claim(localHostName())
        : settings.nodeName();
    loadSharing = new LoadSharing(settings.nodeName().isEmpty() ? localHostName()
        : settings.nodeName(), settings.loadPort(),
        TimeUnit.MILLISECONDS.toNanos(3L * settings.sampleIntervalMillis()));
    List<MeterChannel> channels = createChannels(conf, containerUtilisation);
    meterSummary = channels.isEmpty() ? "none" : settings.meters().stream()
        .map(name -> name + ":" + new MeterSpec(name, conf).type())
        .collect(Collectors.joining(";"));
    ContainerCpuSource cpuSource = cpuSourceOverride != null ? cpuSourceOverride
        : NodeCpuSources.containers(conf);
    sampler = new NodeSampler(channels, ledger, cpuSource, history, clock,
        settings.meterTimeoutMillis(), settings.idleWatts(), containerUtilisation);
    historyWriter = new HistoryWriter(conf, settings.historyDir(), node);
    if (settings.nodeHistoryEnabled() || loadSharing.any()) {
      sampler.sampleUtilisation(new org.fawnpack.energy.cpu.NodeUtilisation());
      sampler.tellCpu(loadSharing::interval);
    }
    if (settings.nodeHistoryEnabled()) {
      nodeHistory = new NodeHistoryWriter(conf, settings.historyDir(), node, settings.role(),
          settings.sampleIntervalMillis(), settings.nodeHistoryRollMillis(), meterSummary,
          sampler::estimated,
          TimeUnit.HOURS.toMillis(settings.nodeHistoryKeepHours()));
    }
    if (channels.isEmpty()) {
      LOG.warn("{} has no meters ({} is empty): tasks will report gaps and no energy",
          EnergyProtocol.SERVICE_NAME, EnergyKeys.METERS.name());
    }
    LOG.info("{} on {}: meters {}, sample every {} ms (meter timeout {} ms), idle power {}",
        EnergyProtocol.SERVICE_NAME, node, meterSummary, settings.sampleIntervalMillis(),
        settings.meterTimeoutMillis(), Double.isNaN(settings.idleWatts()) ? "learned"
            : settings.idleWatts() + " W");
    registerMetrics(node);
    super.serviceInit(conf);
  }

  private List<MeterChannel> createChannels(Configuration conf,
      ContainerCpuUtilisation containerUtilisation) {
    MeterFactory factory = new MeterFactory(new MeterFactory.UtilisationSources() {
      @Override
      public CpuUtilisation host() {
        return NodeCpuSources.host();
      }

      @Override
      public CpuUtilisation containers() {
        return containerUtilisation;
      }
    });
    List<MeterChannel> channels = new ArrayList<>();
    for (String name : settings.meters()) {
      MeterSpec spec = new MeterSpec(name, conf, settings.meterTimeoutMillis());
      PowerMeter meter;
      HostShare share = new HostShare.Fixed(1);
      double maxWatts = 20_000;
      try {
        share = HostShare.byLoad(spec) ? loadSharing.add(spec) : HostShare.fixed(spec);
        maxWatts = spec.getDouble("max-watts", 20_000);
        meter = factory.create(spec);
      } catch (IOException | RuntimeException | LinkageError e) {
        // A meter's own constructor may throw anything (or its class may not link): disable the
        // meter, never the NodeManager.
        String problem = e instanceof InvalidConfigValueException ? e.getMessage() : e.toString();
        LOG.error("Energy meter '{}' is disabled: {}", name, problem);
        meter = new BrokenMeter(name, problem);
      }
      channels.add(new MeterChannel(meter, share, maxWatts));
    }
    return channels;
  }

  @Override
  protected void serviceStart() throws Exception {
    restoreLedger();
    loadSharing.start(); // an unusable port fails the service's start, named
    queryServer = new QueryServer(settings.port(), this::answer);
    timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
      Thread thread = new Thread(runnable, "fawn-energy-sampler");
      thread.setDaemon(true);
      return thread;
    });
    timer.scheduleAtFixedRate(this::sampleSafely, 0, settings.sampleIntervalMillis(),
        TimeUnit.MILLISECONDS);
    if (nodeHistory != null) {
      timer.scheduleWithFixedDelay(this::rollNodeHistorySafely, settings.nodeHistoryRollMillis(),
          settings.nodeHistoryRollMillis(), TimeUnit.MILLISECONDS);
    }
    if (ledgerStore != null) {
      timer.scheduleWithFixedDelay(this::checkpointSafely, settings.checkpointMillis(),
          settings.checkpointMillis(), TimeUnit.MILLISECONDS);
    }
    LOG.info("{} answers on 127.0.0.1:{}", EnergyProtocol.SERVICE_NAME, queryServer.port());
    super.serviceStart();
  }

  @Override
  protected void serviceStop() throws Exception {
    if (timer != null) {
      timer.shutdownNow();
      timer.awaitTermination(5, TimeUnit.SECONDS);
    }
    if (queryServer != null) {
      queryServer.close();
    }
    if (loadSharing != null) {
      loadSharing.close();
    }
    checkpointSafely();
    finalRoll();
    if (metricsName != null) {
      DefaultMetricsSystem.instance().unregisterSource(metricsName);
      metricsName = null;
    }
    if (sampler != null) {
      sampler.close();
    }
    super.serviceStop();
  }

  private void sampleSafely() {
    try {
      sampler.tick();
    } catch (RuntimeException e) {
      // A bug here must not end the schedule (a thrown exception cancels it): log and go on.
      LOG.error("Energy sample failed; the next interval will try again", e);
    }
  }

  /**
   * The samples since the last roll, written as the NodeManager stops, for at most 5 s: a
   * file system already down must not hold up the NodeManager's stop (its client retries).
   */
  private void finalRoll() throws InterruptedException {
    if (nodeHistory == null) {
      return;
    }
    Thread roll = new Thread(this::rollNodeHistorySafely, "fawn-energy-final-roll");
    roll.setDaemon(true);
    roll.start();
    roll.join(5_000);
    if (roll.isAlive()) {
      LOG.warn("The node's last energy history segment was not written within 5 s; its"
          + " samples since the last roll are lost");
    }
  }

  /** Writes the node's samples since the last segment; a failure waits for the next roll. */
  private void rollNodeHistorySafely() {
    if (nodeHistory == null || history == null) {
      return;
    }
    try {
      nodeHistory.roll(history, clock.currentTimeMillis());
    } catch (IOException | RuntimeException e) {
      LOG.warn("Could not write the node's energy history (next try in {} ms): {}",
          settings.nodeHistoryRollMillis(), e.toString());
    }
  }

  private String answer(String request) {
    String[] words = request.split("\\s+");
    if (words.length == 2 && words[0].equals(EnergyProtocol.ENERGY)) {
      sampler.tickIfOlderThan(FRESH_SAMPLE_NANOS);
      return ledger.energyOf(words[1])
          .map(energy -> EnergyProtocol.OK + " " + energy.toWire())
          .orElse(EnergyProtocol.ERR + " " + EnergyProtocol.UNKNOWN_CONTAINER + " " + words[1]);
    }
    if (words.length == 1 && words[0].equals(EnergyProtocol.NODE)) {
      return EnergyProtocol.OK + " watts=" + sampler.lastWatts() + " metered_uj="
          + ledger.meteredMicrojoules() + " node_idle_uj=" + ledger.nodeIdleMicrojoules()
          + " attributed_uj=" + ledger.attributedMicrojoules() + " samples=" + sampler.samples()
          + " gaps=" + sampler.gapSamples() + " containers=" + ledger.liveCount()
          + " meters=" + meterSummary;
    }
    return EnergyProtocol.ERR + " unknown request '" + request + "'; try ENERGY <containerId> or NODE";
  }

  @Override
  public void initializeApplication(ApplicationInitializationContext context) {
    // Applications are followed through their containers; nothing to do when one starts.
  }

  @Override
  public void initializeContainer(ContainerInitializationContext context) {
    ContainerId id = context.getContainerId();
    Resource resource = context.getResource();
    ledger.open(id.toString(), id.getApplicationAttemptId().getApplicationId().toString(),
        String.valueOf(context.getContainerType()), resource == null ? 1 : resource.getVirtualCores(),
        resource == null ? 0 : resource.getMemorySize(), clock.nanoTime(), clock.currentTimeMillis());
  }

  @Override
  public void stopContainer(ContainerTerminationContext context) {
    ledger.markStopped(context.getContainerId().toString(), clock.nanoTime(),
        clock.currentTimeMillis());
  }

  @Override
  public void stopApplication(ApplicationTerminationContext context) {
    String applicationId = context.getApplicationId().toString();
    if (timer == null || timer.isShutdown()) {
      return;
    }
    // Two intervals later every container of the application has had its last share booked.
    timer.schedule(() -> writeHistory(applicationId), 2L * settings.sampleIntervalMillis(),
        TimeUnit.MILLISECONDS);
  }

  private void writeHistory(String applicationId) {
    List<ContainerRecord> containers = ledger.applicationRecords(applicationId);
    if (containers.isEmpty()) {
      return; // no container of it ran here
    }
    try {
      if (settings.historyEnabled()) {
        historyWriter.write(applicationId, settings.sampleIntervalMillis(), meterSummary,
            sampler.estimated(), history.forApplication(applicationId), containers);
      }
      ledger.forgetApplication(applicationId);
      history.forget(applicationId);
    } catch (IOException | RuntimeException e) {
      // The file system may be down; the accounts stay in the ledger (and checkpoint).
      LOG.warn("Could not write the energy history of {}: {}", applicationId, e.toString());
    }
  }

  @Override
  public ByteBuffer getMetaData() {
    return EnergyProtocol.encodePort(queryServer.port());
  }

  EnergyLedger ledger() {
    return ledger;
  }

  NodeSampler sampler() {
    return sampler;
  }

  int port() {
    return queryServer.port();
  }

  private void restoreLedger() {
    Path recovery = getRecoveryPath();
    if (recovery == null) {
      return;
    }
    ledgerStore = new LedgerStore(Paths.get(recovery.toUri().getPath()));
    try {
      ledgerStore.load().ifPresent(state -> {
        ledger.restore(state, clock.nanoTime());
        LOG.info("Restored the energy ledger from {}: {} containers, {} J metered",
            ledgerStore.file(), state.containers().size(), state.meteredMicrojoules() / 1e6);
      });
    } catch (IOException e) {
      LOG.error("Energy ledger checkpoint unusable; starting with an empty ledger: {}", e.getMessage());
    }
  }

  private void checkpointSafely() {
    if (ledgerStore == null || ledger == null) {
      return;
    }
    try {
      ledgerStore.save(ledger.state());
    } catch (IOException e) {
      LOG.warn("Could not checkpoint the energy ledger to {}: {}", ledgerStore.file(), e.toString());
    }
  }

  /**
   * Registers the metrics source during init, not start: the NodeManager names its metrics
   * system ("NodeManager", the JMX service name) in its own init, just before it inits its aux
   * services. In a mini cluster, where every daemon shares one metrics system, the JobHistory
   * server renames it when it starts, so a source registered at start would land under
   * {@code service=JobHistoryServer}.
   */
  private void registerMetrics(String node) {
    String name = EnergyMetricsSource.RECORD;
    // Several NodeManagers in one JVM (mini clusters) each need their own source name.
    if (DefaultMetricsSystem.instance().getSource(name) != null) {
      name = name + "-" + node;
    }
    DefaultMetricsSystem.instance().register(name, "FAWN node power and energy",
        new EnergyMetricsSource(sampler, ledger, node));
    metricsName = name;
  }

  private static String localHostName() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "localhost";
    }
  }
}

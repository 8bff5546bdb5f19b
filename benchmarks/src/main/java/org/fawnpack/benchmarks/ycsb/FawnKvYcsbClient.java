package org.fawnpack.benchmarks.ycsb;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.fawnpack.kv.auth.ClusterSecret;
import org.fawnpack.kv.client.FawnKvClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import site.ycsb.DBException;

/**
 * YCSB's binding for FAWN-KV: one {@link FawnKvClient} per YCSB thread. A record is one value
 * ({@link YcsbRecord}); the table name is ignored (one key space). Properties:
 * {@code fawnkv.frontends} (host:port,... required), {@code fawnkv.secret} (the cluster secret
 * file, default {@code ~/.fawn-kv/secret}), {@code fawnkv.deadline-ms} (default 5000),
 * {@code fawnkv.zookeeper} (the cluster's ZooKeeper quorum: when set, reads go straight to the
 * tails by the ring followed there, {@code FawnKvClient.connectReadingTails}, one watch per
 * JVM; the back-ends need {@code fawn.kv.tail-read-lease-ms}) and {@code fawnkv.cluster}
 * (default {@code fawn}).
 *
 * <p>An update that names only some fields reads the record, merges and writes it back: two
 * such updates of one record at once may lose one's fields (FAWN-KV has no compare-and-set).
 * The benchmark writes all fields ({@code writeallfields=true}), so an update is one put. Scans
 * are not implemented (FAWN-KV has no range scan for clients).
 */
public final class FawnKvYcsbClient extends OneValueBinding {
  public static final String FRONTENDS = "fawnkv.frontends";
  public static final String SECRET = "fawnkv.secret";
  public static final String DEADLINE_MS = "fawnkv.deadline-ms";
  public static final String ZOOKEEPER = "fawnkv.zookeeper";
  public static final String CLUSTER = "fawnkv.cluster";
  private static final Logger LOG = LoggerFactory.getLogger(FawnKvYcsbClient.class);

  private FawnKvClient client;
  private boolean readsTails;

  @Override
  public void init() throws DBException {
    Properties p = getProperties();
    String frontEnds = p.getProperty(FRONTENDS);
    if (frontEnds == null || frontEnds.isBlank()) {
      throw new DBException(FRONTENDS + " is not set: give host:port of one or more front-ends");
    }
    try {
      recordFields(YcsbCalls.fieldNames(p));
    } catch (NumberFormatException e) {
      throw new DBException("fieldcount is not a number: " + p.getProperty("fieldcount"));
    }
    Path secretFile = Path.of(p.getProperty(SECRET,
        Path.of(System.getProperty("user.home"), ".fawn-kv", "secret").toString()));
    try {
      Duration deadline = Duration.ofMillis(Long.parseLong(p.getProperty(DEADLINE_MS, "5000")));
      String zooKeeper = p.getProperty(ZOOKEEPER);
      if (zooKeeper == null || zooKeeper.isBlank()) {
        client = FawnKvClient.connect(addresses(frontEnds), deadline,
            ClusterSecret.load(secretFile));
      } else {
        RingWatch rings = RingWatch.acquire(zooKeeper, p.getProperty(CLUSTER, "fawn"));
        readsTails = true;
        client = FawnKvClient.connectReadingTails(addresses(frontEnds), deadline,
            FawnKvClient.DEFAULT_TRY_TIMEOUT, ClusterSecret.load(secretFile), rings.source());
      }
    } catch (NumberFormatException e) {
      throw new DBException(DEADLINE_MS + " is not a number of milliseconds: "
          + p.getProperty(DEADLINE_MS));
    } catch (IOException | IllegalArgumentException e) {
      throw new DBException("cannot connect to FAWN-KV at " + frontEnds + " with the secret in "
          + secretFile + ": " + e.getMessage(), e);
    }
  }

  static List<InetSocketAddress> addresses(String list) {
    List<InetSocketAddress> out = new ArrayList<>();
    for (String part : list.split(",")) {
      String hostPort = part.trim();
      int colon = hostPort.lastIndexOf(':');
      if (colon <= 0) {
        throw new IllegalArgumentException(FRONTENDS + ": '" + hostPort + "' is not host:port");
      }
      out.add(new InetSocketAddress(hostPort.substring(0, colon),
          Integer.parseInt(hostPort.substring(colon + 1))));
    }
    return out;
  }

  @Override
  public void cleanup() {
    if (client != null) {
      long[] tails = client.tailGetCounts();
      client.close();
      if (readsTails) {
        LOG.info("gets answered by tails: {}, through a front-end: {}", tails[0], tails[1]);
        RingWatch.release();
      }
    }
  }

  @Override
  byte[] getValue(byte[] key) throws IOException {
    return client.get(key);
  }

  @Override
  void putValue(byte[] key, byte[] value) throws IOException {
    client.put(key, value);
  }

  @Override
  boolean deleteValue(byte[] key) throws IOException {
    return client.delete(key);
  }
}

package org.fawnpack.benchmarks.ycsb;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import site.ycsb.DBException;

/**
 * YCSB's binding for etcd, the durability-matched peer: one {@link EtcdGateway} (HTTP/1.1 to
 * etcd's v3 JSON gateway) per YCSB thread. A record is one value ({@link YcsbRecord}), as in
 * {@link FawnKvYcsbClient}; the table name is ignored. Reads are linearizable (etcd's default),
 * as FAWN-KV's gets are. The n-th client made in this JVM talks to endpoint n mod (number of
 * endpoints), so YCSB's threads spread over the members; etcd forwards writes to its leader.
 * Properties: {@code etcd.endpoints} (comma-separated client URLs, required) and {@code
 * etcd.deadline-ms} (per call, default 5000).
 *
 * <p>An update that names only some fields reads the record, merges and writes it back: two
 * such updates of one record at once may lose one's fields (no compare-and-set here, as in
 * FAWN-KV's binding, so both do the same work). The benchmark writes all fields ({@code
 * writeallfields=true}), so an update is one put. Scans are not implemented (FAWN-KV has none
 * to compare).
 */
public final class EtcdYcsbClient extends OneValueBinding {
  public static final String ENDPOINTS = "etcd.endpoints";
  public static final String DEADLINE_MS = "etcd.deadline-ms";
  private static final Logger LOG = LoggerFactory.getLogger(EtcdYcsbClient.class);
  /** Clients made so far in this JVM: YCSB makes one per thread and tells it no thread number. */
  private static final AtomicInteger CLIENTS = new AtomicInteger();

  private EtcdGateway etcd;

  @Override
  public void init() throws DBException {
    Properties p = getProperties();
    String list = p.getProperty(ENDPOINTS);
    if (list == null || list.isBlank()) {
      throw new DBException(ENDPOINTS + " is not set: give the client URL of one or more etcd"
          + " members, e.g. http://127.0.0.1:2379");
    }
    List<URI> endpoints = endpoints(list);
    Duration deadline;
    try {
      deadline = Duration.ofMillis(Long.parseLong(p.getProperty(DEADLINE_MS, "5000")));
    } catch (NumberFormatException e) {
      throw new DBException(DEADLINE_MS + " is not a number of milliseconds: "
          + p.getProperty(DEADLINE_MS));
    }
    if (deadline.isNegative() || deadline.isZero()) {
      throw new DBException(DEADLINE_MS + " must be positive: " + p.getProperty(DEADLINE_MS));
    }
    try {
      recordFields(YcsbCalls.fieldNames(p));
    } catch (NumberFormatException e) {
      throw new DBException("fieldcount is not a number: " + p.getProperty("fieldcount"));
    }
    URI endpoint = endpoints.get(Math.floorMod(CLIENTS.getAndIncrement(), endpoints.size()));
    etcd = new EtcdGateway(endpoint, deadline);
    LOG.debug("YCSB client talks to etcd at {}", endpoint);
  }

  private static List<URI> endpoints(String list) throws DBException {
    List<URI> out = new ArrayList<>();
    for (String part : list.split(",")) {
      String url = part.trim();
      try {
        URI uri = new URI(url);
        if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
            || uri.getHost() == null) {
          throw new DBException(ENDPOINTS + ": '" + url + "' is not an http:// or https://"
              + " URL with a host");
        }
        out.add(uri);
      } catch (URISyntaxException e) {
        throw new DBException(ENDPOINTS + ": '" + url + "' is not a URL: " + e.getMessage());
      }
    }
    return out;
  }

  /** The member this client talks to. */
  URI endpoint() {
    return etcd.endpoint();
  }

  @Override
  byte[] getValue(byte[] key) throws IOException {
    return etcd.get(key);
  }

  @Override
  void putValue(byte[] key, byte[] value) throws IOException {
    etcd.put(key, value);
  }

  @Override
  boolean deleteValue(byte[] key) throws IOException {
    return etcd.delete(key);
  }
}

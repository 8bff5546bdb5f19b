package org.fawnpack.benchmarks.ycsb;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Vector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * The baseline's YCSB binding for Redis, as YCSB's own Redis binding stores records: one hash
 * per record (HSET, HGETALL or HMGET, DEL), one connection per YCSB thread. Properties: {@code
 * redis.host} (127.0.0.1), {@code redis.port} (6379). No scans (FAWN-KV has none to compare).
 */
public final class RedisYcsbClient extends DB {
  public static final String HOST = "redis.host";
  public static final String PORT = "redis.port";
  private static final Logger LOG = LoggerFactory.getLogger(RedisYcsbClient.class);

  private RespConnection redis;

  @Override
  public void init() throws DBException {
    String host = getProperties().getProperty(HOST, "127.0.0.1");
    String port = getProperties().getProperty(PORT, "6379");
    try {
      redis = new RespConnection(new InetSocketAddress(host, Integer.parseInt(port)), 10_000);
    } catch (IOException | NumberFormatException e) {
      throw new DBException("cannot connect to Redis at " + host + ":" + port + ": " + e, e);
    }
  }

  @Override
  public void cleanup() throws DBException {
    try {
      if (redis != null) {
        redis.close();
      }
    } catch (IOException e) {
      throw new DBException(e);
    }
  }

  @Override
  public Status read(String table, String key, Set<String> fields,
      Map<String, ByteIterator> result) {
    try {
      if (fields == null) {
        List<?> pairs = (List<?>) redis.call(List.of(YcsbCalls.bytes("HGETALL"),
            YcsbCalls.bytes(key)));
        if (pairs.isEmpty()) {
          return Status.NOT_FOUND;
        }
        for (int i = 0; i + 1 < pairs.size(); i += 2) {
          result.put(new String((byte[]) pairs.get(i), StandardCharsets.UTF_8),
              new ByteArrayByteIterator((byte[]) pairs.get(i + 1)));
        }
        return Status.OK;
      }
      List<byte[]> args = new ArrayList<>();
      args.add(YcsbCalls.bytes("HMGET"));
      args.add(YcsbCalls.bytes(key));
      List<String> names = new ArrayList<>(fields);
      names.forEach(f -> args.add(YcsbCalls.bytes(f)));
      List<?> values = (List<?>) redis.call(args);
      boolean any = false;
      for (int i = 0; i < names.size(); i++) {
        if (values.get(i) != null) {
          result.put(names.get(i), new ByteArrayByteIterator((byte[]) values.get(i)));
          any = true;
        }
      }
      return any ? Status.OK : Status.NOT_FOUND;
    } catch (IOException e) {
      return YcsbCalls.failed(LOG, "read", key, e);
    }
  }

  @Override
  public Status scan(String table, String startKey, int count, Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    return Status.NOT_IMPLEMENTED;
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    return insert(table, key, values);
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    List<byte[]> args = new ArrayList<>();
    args.add(YcsbCalls.bytes("HSET"));
    args.add(YcsbCalls.bytes(key));
    values.forEach((field, value) -> {
      args.add(YcsbCalls.bytes(field));
      args.add(value.toArray());
    });
    try {
      redis.call(args);
      return Status.OK;
    } catch (IOException e) {
      return YcsbCalls.failed(LOG, "insert", key, e);
    }
  }

  @Override
  public Status delete(String table, String key) {
    try {
      long removed = (Long) redis.call(List.of(YcsbCalls.bytes("DEL"), YcsbCalls.bytes(key)));
      return removed > 0 ? Status.OK : Status.NOT_FOUND;
    } catch (IOException e) {
      return YcsbCalls.failed(LOG, "delete", key, e);
    }
  }
}

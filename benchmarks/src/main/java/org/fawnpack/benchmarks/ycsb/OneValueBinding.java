package org.fawnpack.benchmarks.ycsb;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.Vector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.Status;

/**
 * YCSB's operations for a store that keeps a record as one value under its key
 * ({@link YcsbRecord}): a binding gives get, put and delete of one value. An update that names
 * only some fields reads the record, merges and writes it back, so two such updates of one
 * record at once may lose one's fields (neither store has a compare-and-set here); the
 * benchmark writes all fields ({@code writeallfields=true}), so an update is one put. Scans are
 * not implemented.
 */
abstract class OneValueBinding extends DB {
  private final Logger log = LoggerFactory.getLogger(getClass());
  private Set<String> wholeRecord;

  /** The value under {@code key}, or null when there is none. */
  abstract byte[] getValue(byte[] key) throws IOException;

  abstract void putValue(byte[] key, byte[] value) throws IOException;

  /** Removes {@code key}; whether there was one. */
  abstract boolean deleteValue(byte[] key) throws IOException;

  /** From {@code init}: the field names of a whole record (an update of fewer merges). */
  final void recordFields(Set<String> names) {
    wholeRecord = names;
  }

  @Override
  public Status read(String table, String key, Set<String> fields,
      Map<String, ByteIterator> result) {
    try {
      byte[] value = getValue(YcsbCalls.bytes(key));
      if (value == null) {
        return Status.NOT_FOUND;
      }
      YcsbRecord.decode(value, fields, result);
      return Status.OK;
    } catch (IOException | IllegalArgumentException e) {
      return YcsbCalls.failed(log, "read", key, e);
    }
  }

  @Override
  public Status scan(String table, String startKey, int count, Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    return Status.NOT_IMPLEMENTED;
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    try {
      Map<String, ByteIterator> record = values;
      if (!values.keySet().containsAll(wholeRecord)) {
        byte[] old = getValue(YcsbCalls.bytes(key));
        if (old == null) {
          return Status.NOT_FOUND;
        }
        record = new HashMap<>();
        YcsbRecord.decode(old, null, record);
        record.putAll(values);
      }
      putValue(YcsbCalls.bytes(key), YcsbRecord.encode(record));
      return Status.OK;
    } catch (IOException | IllegalArgumentException e) {
      return YcsbCalls.failed(log, "update", key, e);
    }
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    try {
      putValue(YcsbCalls.bytes(key), YcsbRecord.encode(values));
      return Status.OK;
    } catch (IOException e) {
      return YcsbCalls.failed(log, "insert", key, e);
    }
  }

  @Override
  public Status delete(String table, String key) {
    try {
      return deleteValue(YcsbCalls.bytes(key)) ? Status.OK : Status.NOT_FOUND;
    } catch (IOException e) {
      return YcsbCalls.failed(log, "delete", key, e);
    }
  }
}

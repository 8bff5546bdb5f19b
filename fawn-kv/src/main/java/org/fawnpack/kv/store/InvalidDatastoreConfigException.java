package org.fawnpack.kv.store;

/** A {@code fawn.kv.*} setting has a value outside what is allowed; names the key and value. */
public final class InvalidDatastoreConfigException extends IllegalArgumentException {

  public InvalidDatastoreConfigException(String key, Object value, String allowed) {
    super(key + " = " + value + " is invalid: must be " + allowed);
  }
}

package org.fawnpack.kv.config;

import java.util.List;
import java.util.function.UnaryOperator;
import org.fawnpack.conf.ConfigKey;
import org.fawnpack.conf.InvalidConfigValueException;
import org.fawnpack.kv.auth.TlsCredentials;

/**
 * The keys that put every FAWN-KV connection inside TLS, named after Hadoop's own
 * ssl-server.xml settings (a key store with this node's certificate and key, a trust store
 * with the certificates it accepts). Part of {@link KvKeys#KEYS}.
 */
public final class KvTlsKeys {
  private static final String STORE_TYPES = "PKCS12 or JKS";

  public static final ConfigKey<Boolean> ENABLED = ConfigKey.booleanKey("fawn.kv.tls.enabled",
      false, "Every FAWN-KV connection (client, front-end, back-end, copies, direct gets) runs"
      + " inside TLS with mutual authentication: each side presents the key store's certificate"
      + " and accepts only one the trust store vouches for; a peer without TLS or with another"
      + " certificate is refused, the reason logged. The cluster-secret handshake runs inside"
      + " it as before. Set alike on every node and client of a cluster.");
  public static final ConfigKey<String> KEYSTORE_LOCATION = ConfigKey.stringKey(
      "fawn.kv.tls.keystore.location", null,
      "Key store file holding this node's private key and certificate (needed with TLS on).");
  public static final ConfigKey<String> KEYSTORE_PASSWORD = ConfigKey.stringKey(
      "fawn.kv.tls.keystore.password", null,
      "Password of the key store and of its key. Unset: none.");
  public static final ConfigKey<String> KEYSTORE_TYPE = ConfigKey.stringKey(
      "fawn.kv.tls.keystore.type", "PKCS12", STORE_TYPES, KvTlsKeys::knownType,
      "Format of the key store file.");
  public static final ConfigKey<String> TRUSTSTORE_LOCATION = ConfigKey.stringKey(
      "fawn.kv.tls.truststore.location", null,
      "Trust store file with the certificates (or the CA) of every node and client allowed to"
      + " connect (needed with TLS on).");
  public static final ConfigKey<String> TRUSTSTORE_PASSWORD = ConfigKey.stringKey(
      "fawn.kv.tls.truststore.password", null, "Password of the trust store. Unset: none.");
  public static final ConfigKey<String> TRUSTSTORE_TYPE = ConfigKey.stringKey(
      "fawn.kv.tls.truststore.type", "PKCS12", STORE_TYPES, KvTlsKeys::knownType,
      "Format of the trust store file.");

  public static final List<ConfigKey<?>> KEYS = List.of(ENABLED, KEYSTORE_LOCATION,
      KEYSTORE_PASSWORD, KEYSTORE_TYPE, TRUSTSTORE_LOCATION, TRUSTSTORE_PASSWORD,
      TRUSTSTORE_TYPE);

  private KvTlsKeys() {}

  private static boolean knownType(String type) {
    return type.equalsIgnoreCase("PKCS12") || type.equalsIgnoreCase("JKS");
  }

  /**
   * The credentials the settings name, loaded and checked; null when TLS is off.
   *
   * @throws InvalidConfigValueException naming the key of a store that is unset or unusable
   */
  public static TlsCredentials credentials(UnaryOperator<String> settings) {
    if (!ENABLED.read(settings)) {
      return null;
    }
    String keys = required(KEYSTORE_LOCATION, settings);
    String trust = required(TRUSTSTORE_LOCATION, settings);
    try {
      return TlsCredentials.load(KvKeys.localPath(keys), KEYSTORE_TYPE.read(settings),
          password(KEYSTORE_PASSWORD, settings), KvKeys.localPath(trust),
          TRUSTSTORE_TYPE.read(settings), password(TRUSTSTORE_PASSWORD, settings));
    } catch (TlsCredentials.StoreException e) {
      String key = e.trustStore() ? TRUSTSTORE_LOCATION.name() : KEYSTORE_LOCATION.name();
      throw new InvalidConfigValueException(key, settings.apply(key),
          "a readable store: " + e.getMessage());
    }
  }

  private static String required(ConfigKey<String> key, UnaryOperator<String> settings) {
    String value = key.read(settings);
    if (value == null) {
      throw new InvalidConfigValueException(key.name(), "(unset)",
          "a file, since " + ENABLED.name() + " is true");
    }
    return value;
  }

  private static char[] password(ConfigKey<String> key, UnaryOperator<String> settings) {
    String value = key.read(settings);
    return value == null ? new char[0] : value.toCharArray();
  }
}

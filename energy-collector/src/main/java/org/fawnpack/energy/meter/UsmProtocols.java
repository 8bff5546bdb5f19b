package org.fawnpack.energy.meter;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import org.snmp4j.security.AuthHMAC128SHA224;
import org.snmp4j.security.AuthHMAC192SHA256;
import org.snmp4j.security.AuthHMAC256SHA384;
import org.snmp4j.security.AuthHMAC384SHA512;
import org.snmp4j.security.AuthMD5;
import org.snmp4j.security.AuthSHA;
import org.snmp4j.security.AuthenticationProtocol;
import org.snmp4j.security.PrivAES128;
import org.snmp4j.security.PrivAES192;
import org.snmp4j.security.PrivAES256;
import org.snmp4j.security.PrivDES;
import org.snmp4j.security.PrivacyProtocol;

/**
 * The SNMPv3 protocol names accepted in {@code auth-protocol} / {@code priv-protocol}, written
 * as PDU web interfaces and net-snmp print them (case, '-' and '_' ignored: "sha-256" = "SHA256").
 */
final class UsmProtocols {

  /** The priv-protocol value that asks for authNoPriv. */
  static final String NONE = "none";

  private static final Map<String, Supplier<AuthenticationProtocol>> AUTH = new LinkedHashMap<>();
  private static final Map<String, Supplier<PrivacyProtocol>> PRIV = new LinkedHashMap<>();

  static {
    AUTH.put("MD5", AuthMD5::new);
    AUTH.put("SHA", AuthSHA::new);
    AUTH.put("SHA1", AuthSHA::new);
    AUTH.put("SHA224", AuthHMAC128SHA224::new);
    AUTH.put("SHA256", AuthHMAC192SHA256::new);
    AUTH.put("SHA384", AuthHMAC256SHA384::new);
    AUTH.put("SHA512", AuthHMAC384SHA512::new);
    PRIV.put("AES", PrivAES128::new);
    PRIV.put("AES128", PrivAES128::new);
    PRIV.put("AES192", PrivAES192::new);
    PRIV.put("AES256", PrivAES256::new);
    PRIV.put("DES", PrivDES::new);
  }

  private UsmProtocols() {
  }

  static AuthenticationProtocol auth(String key, String name) {
    Supplier<AuthenticationProtocol> found = AUTH.get(normalise(name));
    if (found == null) {
      throw new EnergyConfigException(key, "must be one of MD5, SHA, SHA-224, SHA-256, SHA-384, "
          + "SHA-512, was '" + name + "'");
    }
    return found.get();
  }

  /** The privacy protocol, or null for {@value #NONE}. */
  static PrivacyProtocol priv(String key, String name) {
    if (name.equalsIgnoreCase(NONE)) {
      return null;
    }
    Supplier<PrivacyProtocol> found = PRIV.get(normalise(name));
    if (found == null) {
      throw new EnergyConfigException(key, "must be one of AES128, AES192, AES256, DES, none, "
          + "was '" + name + "'");
    }
    return found.get();
  }

  private static String normalise(String name) {
    return name.trim().toUpperCase(Locale.ROOT).replace("-", "").replace("_", "");
  }
}

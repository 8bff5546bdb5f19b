package org.fawnpack.energy.meter;

import java.io.IOException;
import java.util.List;
import java.util.Locale;
import org.snmp4j.security.AuthenticationProtocol;
import org.snmp4j.security.PrivacyProtocol;
import org.snmp4j.security.SecurityLevel;
import org.snmp4j.smi.OctetString;

/**
 * Who the meter is to the agent: an SNMPv2c community or an SNMPv3 USM user. Secrets never
 * appear in {@code toString()} or in an error message.
 */
sealed interface SnmpCredentials {

  /** RFC 3414 (section 11.2) asks for pass phrases of at least 8 characters; snmp4j enforces it. */
  int MIN_PASSPHRASE = 8;

  /** An SNMPv2c community string. */
  record Community(OctetString community) implements SnmpCredentials {
    @Override
    public String toString() {
      return "SNMPv2c community";
    }
  }

  /** An SNMPv3 user; the protocols are null where the security level leaves them out. */
  record Usm(OctetString user, AuthenticationProtocol auth, OctetString authPassphrase,
      PrivacyProtocol priv, OctetString privPassphrase) implements SnmpCredentials {

    SecurityLevel level() {
      return auth == null ? SecurityLevel.noAuthNoPriv
          : priv == null ? SecurityLevel.authNoPriv : SecurityLevel.authPriv;
    }

    @Override
    public String toString() {
      return "SNMPv3 user " + user + " (" + level() + ")";
    }
  }

  static SnmpCredentials fromSpec(MeterSpec spec) {
    String version = spec.get("version", "2c").toLowerCase(Locale.ROOT);
    switch (version) {
      case "2c", "v2c" -> {
        rejectAll(spec, "is only used with " + spec.key("version") + "=3", "user",
            "auth-protocol", "priv-protocol", "auth-passphrase", "priv-passphrase");
        return community(spec);
      }
      case "3", "v3" -> {
        rejectAll(spec, "is only used with " + spec.key("version") + "=2c", "community");
        return usm(spec);
      }
      default -> throw new EnergyConfigException(spec.key("version"), "must be 2c or 3, was '"
          + spec.get("version", "") + "'");
    }
  }

  // The community is a weak secret: the credential store wins, yet a plain value (and the
  // "public" default) stays allowed because most PDUs ship with a read-only community only.
  private static Community community(MeterSpec spec) {
    String key = spec.key("community");
    try {
      char[] stored = spec.conf().getPasswordFromCredentialProviders(key);
      if (stored != null) {
        return new Community(new OctetString(new String(stored)));
      }
    } catch (IOException e) {
      throw new EnergyConfigException(key, "could not be read from the credential provider: "
          + e.getMessage());
    }
    return new Community(new OctetString(spec.get("community", "public")));
  }

  // The security level follows from which pass phrases are stored: none, auth only, or both.
  private static Usm usm(MeterSpec spec) {
    OctetString user = new OctetString(spec.require("user"));
    String authPass = passphrase(spec, "auth-passphrase");
    String privPass = passphrase(spec, "priv-passphrase");
    String privName = spec.get("priv-protocol", null);
    if (authPass == null) {
      if (privPass != null) {
        throw new EnergyConfigException(spec.key("auth-passphrase"), "is required when "
            + spec.key("priv-passphrase") + " is stored (SNMPv3 has no privacy without "
            + "authentication)");
      }
      rejectAll(spec, "needs " + spec.key("auth-passphrase") + " in the credential provider",
          "auth-protocol", "priv-protocol");
      return new Usm(user, null, null, null, null);
    }
    AuthenticationProtocol auth = UsmProtocols.auth(spec.key("auth-protocol"),
        spec.get("auth-protocol", "SHA"));
    if (privPass == null) {
      if (privName != null && !privName.equalsIgnoreCase(UsmProtocols.NONE)) {
        throw new EnergyConfigException(spec.key("priv-passphrase"), "is required in the "
            + "credential provider when " + spec.key("priv-protocol") + " is " + privName);
      }
      return new Usm(user, auth, new OctetString(authPass), null, null);
    }
    PrivacyProtocol priv = UsmProtocols.priv(spec.key("priv-protocol"),
        privName == null ? "AES128" : privName);
    if (priv == null) {
      throw new EnergyConfigException(spec.key("priv-protocol"), "is none, yet "
          + spec.key("priv-passphrase") + " is stored; remove one of them");
    }
    return new Usm(user, auth, new OctetString(authPass), priv, new OctetString(privPass));
  }

  private static String passphrase(MeterSpec spec, String setting) {
    String value = spec.secret(setting);
    if (value != null && value.length() < MIN_PASSPHRASE) {
      throw new EnergyConfigException(spec.key(setting), "must be at least " + MIN_PASSPHRASE
          + " characters (RFC 3414); the stored value is shorter");
    }
    return value;
  }

  private static void rejectAll(MeterSpec spec, String why, String... settings) {
    for (String setting : List.of(settings)) {
      if (spec.conf().get(spec.key(setting)) != null) {
        throw new EnergyConfigException(spec.key(setting), why);
      }
    }
  }
}

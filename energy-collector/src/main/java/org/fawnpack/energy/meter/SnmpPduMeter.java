package org.fawnpack.energy.meter;

import java.io.IOException;
import java.util.List;
import java.util.OptionalInt;
import java.util.function.LongSupplier;
import org.snmp4j.smi.Counter64;
import org.snmp4j.smi.Integer32;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.SMIConstants;
import org.snmp4j.smi.TimeTicks;
import org.snmp4j.smi.UnsignedInteger32;
import org.snmp4j.smi.Variable;
import org.snmp4j.smi.VariableBinding;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Meter type {@code snmp-pdu}: the active power of one PDU outlet or inlet (or a whole PDU), read
 * with an SNMP GET of a vendor preset's OID or of a raw numeric OID.
 *
 * <p>All settings are validated in the constructor; the UDP session is opened on the first read
 * and kept until {@link #close()}, except that an SNMPv3 timeout may drop it so the next read
 * rediscovers the agent's engine ID (see {@link EngineRediscoveryPacer}). Reads come from one
 * thread.
 */
public final class SnmpPduMeter implements PowerMeter {
  public static final String TYPE = "snmp-pdu";
  /**
   * Per try. With {@link #DEFAULT_RETRIES} a dead agent costs 400 ms, inside the collector's
   * default wait of 500 ms ({@code fawn.energy.meter-timeout-ms} at a 1 s sample interval); a
   * PDU's agent answers a GET in tens of milliseconds.
   */
  public static final int DEFAULT_TIMEOUT_MS = 200;
  public static final int DEFAULT_RETRIES = 1;

  private static final Logger LOG = LoggerFactory.getLogger(SnmpPduMeter.class);
  private static final int MAX_DECIMAL_DIGITS = 9;

  private final String name;
  private final SnmpEndpoint endpoint;
  private final SnmpCredentials credentials;
  private final SnmpReadPlan plan;
  private final long timeoutMs;
  private final int retries;
  private final EngineRediscoveryPacer rediscovery;

  private SnmpSession session;
  /** 10^decimalDigits once read (Raritan); the digits are configuration, not measurement. */
  private double divisor = Double.NaN;
  private boolean closed;

  public SnmpPduMeter(MeterSpec spec) {
    this(spec, System::nanoTime);
  }

  /** With the clock that paces engine rediscovery, so tests can step it. */
  SnmpPduMeter(MeterSpec spec, LongSupplier nanoClock) {
    this.name = spec.name();
    this.endpoint = SnmpEndpoint.parse(spec.key("address"), spec.require("address"));
    this.plan = SnmpReadPlan.fromSpec(spec);
    this.credentials = SnmpCredentials.fromSpec(spec);
    this.timeoutMs = spec.getInt("timeout-ms", DEFAULT_TIMEOUT_MS, 10, 60_000);
    this.retries = spec.getInt("retries", DEFAULT_RETRIES, 0, 10);
    this.rediscovery = new EngineRediscoveryPacer(nanoClock);
    checkFitsTheCollectorsWait(spec);
    if (plan.decimalDigitsOid() == null) {
      divisor = 1.0;
    }
  }

  // A dead agent must cost less than the collector waits for a read, or every sample while it is
  // down ends as the collector's timeout and the meter stays busy into the next sample.
  private void checkFitsTheCollectorsWait(MeterSpec spec) {
    OptionalInt wait = spec.meterTimeoutMillis();
    long tries = retries + 1L;
    if (wait.isPresent() && timeoutMs * tries > wait.getAsInt()) {
      throw new EnergyConfigException(spec.key("timeout-ms"), "(" + timeoutMs + " ms) x "
          + tries + " tries (" + spec.key("retries") + " = " + retries + ") = "
          + timeoutMs * tries + " ms exceeds " + MeterSpec.METER_TIMEOUT_KEY + " ("
          + wait.getAsInt() + " ms), how long a sample waits for each meter; lower "
          + spec.key("timeout-ms") + " or " + spec.key("retries") + ", or raise "
          + MeterSpec.METER_TIMEOUT_KEY);
    }
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public MeterReading read() throws IOException {
    SnmpSession open = session();
    boolean needDigits = Double.isNaN(divisor);
    List<OID> oids = needDigits ? List.of(plan.valueOid(), plan.decimalDigitsOid())
        : List.of(plan.valueOid());
    List<VariableBinding> answer;
    try {
      answer = open.get(oids);
    } catch (MeterException e) {
      if (e.causeKey().equals("timeout")) {
        afterTimeout(open);
      }
      throw e;
    }
    if (needDigits) {
      long digits = integer(answer.get(1));
      if (digits < 0 || digits > MAX_DECIMAL_DIGITS) {
        throw new MeterException("not-available", "decimal digits " + digits + " at "
            + plan.decimalDigitsOid() + " on " + endpoint + " is out of range 0.."
            + MAX_DECIMAL_DIGITS);
      }
      divisor = Math.pow(10, digits);
      LOG.debug("Meter {}: {} carries {} decimal digits", name, plan.valueOid(), digits);
    }
    long raw = integer(answer.get(0));
    if (plan.noReading().noReading(raw)) {
      throw new MeterException("not-available", endpoint + " reports " + raw + " at "
          + plan.valueOid() + " (no reading: " + plan.noReading().meaning() + ")");
    }
    return MeterReading.watts(raw * plan.scale() / divisor);
  }

  // Synchronized with close() so a close racing the first read cannot leak a socket; the GET
  // itself runs outside the lock, so close() never waits for a timeout.
  private synchronized SnmpSession session() throws IOException {
    if (closed) {
      throw new IOException("meter " + name + " is closed");
    }
    if (session == null) {
      try {
        session = SnmpSession.open(endpoint.resolve(), endpoint.toString(), credentials,
            timeoutMs, retries);
      } catch (MeterException e) {
        throw e;
      } catch (IOException e) {
        throw new MeterException("snmp-error", "cannot open an SNMP session to " + endpoint
            + ": " + e.getMessage(), e);
      }
      LOG.info("Meter {}: SNMP session to {} as {}, reading {}", name, endpoint, credentials,
          plan.valueOid());
    }
    return session;
  }

  // v2c needs nothing: no engine ID to go stale. v3 drops the session (paced), and the next read
  // opens a new one, which discovers the agent's engine ID afresh.
  private void afterTimeout(SnmpSession timedOut) {
    if (!(credentials instanceof SnmpCredentials.Usm) || !rediscovery.mayRediscover()) {
      return;
    }
    synchronized (this) {
      if (session != timedOut) {
        return;
      }
      session = null;
    }
    LOG.info("Meter {}: no SNMPv3 answer from {}; the next read opens a new session and "
        + "rediscovers the agent's engine ID (a replaced or reset PDU network card has a new one)",
        name, endpoint);
    try {
      timedOut.close();
    } catch (IOException e) {
      LOG.warn("Meter {}: closing the old SNMP session to {} failed: {}", name, endpoint,
          e.toString());
    }
  }

  // Only integer syntaxes carry a reading; noSuchObject/noSuchInstance/endOfMibView, strings and
  // TimeTicks mean the OID does not hold power on this agent.
  private long integer(VariableBinding binding) throws MeterException {
    Variable value = binding.getVariable();
    if (binding.isException()) {
      throw new MeterException("not-available", endpoint + " answered "
          + exceptionName(value) + " for " + binding.getOid()
          + " (check the preset and the outlet/inlet/unit index)");
    }
    if (value instanceof Integer32 || value instanceof Counter64
        || (value instanceof UnsignedInteger32 && !(value instanceof TimeTicks))) {
      return value.toLong();
    }
    throw new MeterException("not-available", endpoint + " answered a "
        + value.getSyntaxString() + " (" + value + ") for " + binding.getOid()
        + ", not an integer");
  }

  private static String exceptionName(Variable value) {
    return switch (value.getSyntax()) {
      case SMIConstants.EXCEPTION_NO_SUCH_OBJECT -> "noSuchObject";
      case SMIConstants.EXCEPTION_NO_SUCH_INSTANCE -> "noSuchInstance";
      case SMIConstants.EXCEPTION_END_OF_MIB_VIEW -> "endOfMibView";
      default -> value.getSyntaxString();
    };
  }

  @Override
  public synchronized void close() throws IOException {
    closed = true;
    SnmpSession open = session;
    session = null;
    if (open != null) {
      open.close();
    }
  }
}

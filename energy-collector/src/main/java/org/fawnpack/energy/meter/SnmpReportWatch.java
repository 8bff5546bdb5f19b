package org.fawnpack.energy.meter;

import java.util.function.Consumer;
import org.snmp4j.CommandResponderEvent;
import org.snmp4j.PDU;
import org.snmp4j.Snmp;
import org.snmp4j.mp.PduHandle;
import org.snmp4j.security.SecurityLevel;
import org.snmp4j.smi.Address;
import org.snmp4j.smi.OID;

/**
 * snmp4j's own report handling, plus the USM refusals it drops.
 *
 * <p>An agent that cannot verify a request's digest (wrong auth pass phrase or protocol) cannot
 * sign its answer with that user's key either, so net-snmp's snmpd sends the
 * usmStatsWrongDigests report unauthenticated (noAuthNoPriv). With its default report strategy,
 * snmp4j discards an unauthenticated report to an authenticated request unless it names an
 * unknown user or engine, and the read would end as a timeout that hides the cause. Changing
 * that strategy is JVM-wide ({@code SNMP4JSettings}), so instead this handler, set on the
 * meter's own {@link Snmp}, lets snmp4j do what it does and then hands such a refusal to the
 * session.
 *
 * <p>An unauthenticated report could be forged by anyone on the path; it only ends the read in
 * progress as an error, as a dropped datagram would end it as a timeout, and changes no state.
 */
final class SnmpReportWatch implements Snmp.ReportHandler {
  /** RFC 3414 usmStats counters: the reports an agent's USM refuses a request with. */
  private static final OID USM_STATS = new OID("1.3.6.1.6.3.15.1.1");
  /** usmStatsNotInTimeWindows and usmStatsUnknownEngineIDs: snmp4j resynchronises and resends. */
  private static final OID NOT_IN_TIME_WINDOWS = new OID("1.3.6.1.6.3.15.1.1.2");
  private static final OID UNKNOWN_ENGINE_IDS = new OID("1.3.6.1.6.3.15.1.1.4");

  private final Snmp.ReportHandler snmp4jHandler;
  private final int requestSecurityLevel;
  private final Consumer<PDU> refusals;

  /**
   * @param snmp4jHandler the handler snmp4j installed, still called first for every report
   * @param requestSecurityLevel the security level the session's requests are sent with
   * @param refusals receives each unauthenticated USM refusal that snmp4j drops
   */
  SnmpReportWatch(Snmp.ReportHandler snmp4jHandler, int requestSecurityLevel,
      Consumer<PDU> refusals) {
    this.snmp4jHandler = snmp4jHandler;
    this.requestSecurityLevel = requestSecurityLevel;
    this.refusals = refusals;
  }

  @Override
  public <A extends Address> void processReport(PduHandle handle,
      CommandResponderEvent<A> event) {
    snmp4jHandler.processReport(handle, event);
    PDU report = event.getPDU();
    if (report != null && isUnauthenticatedRefusal(event.getSecurityLevel(), report)) {
      refusals.accept(report);
    }
  }

  private boolean isUnauthenticatedRefusal(int reportSecurityLevel, PDU report) {
    if (reportSecurityLevel != SecurityLevel.NOAUTH_NOPRIV
        || requestSecurityLevel == SecurityLevel.NOAUTH_NOPRIV || report.size() == 0) {
      return false;
    }
    OID oid = report.get(0).getOid();
    return oid != null && oid.startsWith(USM_STATS) && !oid.startsWith(NOT_IN_TIME_WINDOWS)
        && !oid.startsWith(UNKNOWN_ENGINE_IDS);
  }
}

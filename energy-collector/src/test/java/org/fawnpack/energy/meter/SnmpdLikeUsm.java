package org.fawnpack.energy.meter;

import java.io.IOException;
import org.snmp4j.TransportStateReference;
import org.snmp4j.asn1.BERInputStream;
import org.snmp4j.asn1.BEROutputStream;
import org.snmp4j.mp.SnmpConstants;
import org.snmp4j.mp.StatusInformation;
import org.snmp4j.security.SecurityLevel;
import org.snmp4j.security.SecurityModel;
import org.snmp4j.security.SecurityParameters;
import org.snmp4j.security.SecurityProtocols;
import org.snmp4j.security.SecurityStateReference;
import org.snmp4j.security.USM;
import org.snmp4j.smi.Integer32;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.OctetString;

/**
 * The test agent's USM, answering refused requests the way net-snmp's snmpd does: every USM
 * report (unknown user, wrong digest, unsupported level, unknown engine ID) goes out
 * unauthenticated, except usmStatsNotInTimeWindows, which RFC 3414 (3.2, step 7b) asks to be
 * authenticated.
 *
 * <p>snmp4j can do this with the JVM-wide {@code SNMP4JSettings.setReportSecurityLevelStrategy},
 * but that setting also changes how the meter in the same JVM accepts reports, so it would hide
 * what the meter does with snmp4j's defaults. This override applies to this agent alone.
 */
final class SnmpdLikeUsm extends USM {
  /** usmStatsNotInTimeWindows without its instance arc, so .0 or not both match. */
  private static final OID NOT_IN_TIME_WINDOWS = new OID("1.3.6.1.6.3.15.1.1.2");

  SnmpdLikeUsm(SecurityProtocols protocols, OctetString engineId, int engineBoots) {
    super(protocols, engineId, engineBoots);
  }

  @Override
  public int processIncomingMsg(int messageProcessingModel, int maxMessageSize,
      SecurityParameters securityParameters, SecurityModel securityModel, int securityLevel,
      BERInputStream wholeMsg, TransportStateReference tmStateReference,
      OctetString securityEngineID, OctetString securityName, BEROutputStream scopedPDU,
      Integer32 maxSizeResponseScopedPDU, SecurityStateReference securityStateReference,
      StatusInformation statusInfo) throws IOException {
    int status = super.processIncomingMsg(messageProcessingModel, maxMessageSize,
        securityParameters, securityModel, securityLevel, wholeMsg, tmStateReference,
        securityEngineID, securityName, scopedPDU, maxSizeResponseScopedPDU,
        securityStateReference, statusInfo);
    if (status != SnmpConstants.SNMPv3_USM_OK && statusInfo != null
        && statusInfo.getErrorIndication() != null
        && !statusInfo.getErrorIndication().getOid()
            .startsWith(NOT_IN_TIME_WINDOWS)) {
      statusInfo.setSecurityLevel(new Integer32(SecurityLevel.NOAUTH_NOPRIV));
    }
    return status;
  }
}

package org.fawnpack.energy.meter;

import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.security.SecureRandom;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.snmp4j.CommunityTarget;
import org.snmp4j.MessageDispatcherImpl;
import org.snmp4j.PDU;
import org.snmp4j.ScopedPDU;
import org.snmp4j.Snmp;
import org.snmp4j.Target;
import org.snmp4j.UserTarget;
import org.snmp4j.event.ResponseEvent;
import org.snmp4j.event.ResponseListener;
import org.snmp4j.mp.MPv2c;
import org.snmp4j.mp.MPv3;
import org.snmp4j.mp.SnmpConstants;
import org.snmp4j.security.SecurityModel;
import org.snmp4j.security.SecurityProtocols;
import org.snmp4j.security.USM;
import org.snmp4j.security.UsmUser;
import org.snmp4j.smi.Address;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.OctetString;
import org.snmp4j.smi.UdpAddress;
import org.snmp4j.smi.VariableBinding;
import org.snmp4j.transport.DefaultUdpTransportMapping;

/**
 * One open SNMP session to one agent: a UDP socket, a message dispatcher and a target, kept
 * across reads so a once-a-second read costs one datagram each way (and SNMPv3 engine discovery
 * happens once, not per read). The meter replaces it when the agent's engine may have changed.
 *
 * <p>Each session builds its own USM, security models and protocol set instead of using snmp4j's
 * JVM-wide singletons, so two meters (or a meter and an in-process agent) never share users, and
 * it works with snmp4j's default (JVM-wide) settings: the unauthenticated refusals those
 * settings drop are caught by the session's own {@link SnmpReportWatch}.
 *
 * <p>One request at a time: the meter reads from one thread.
 */
final class SnmpSession implements Closeable {

  /** RFC 3414 usmStats counters (without the .0 instance) an agent reports a refusal with. */
  private static final Map<OID, String> USM_REPORTS = Map.of(
      new OID("1.3.6.1.6.3.15.1.1.1"), "usmStatsUnsupportedSecLevels (security level not "
          + "allowed for this user)",
      new OID("1.3.6.1.6.3.15.1.1.2"), "usmStatsNotInTimeWindows",
      new OID("1.3.6.1.6.3.15.1.1.3"), "usmStatsUnknownUserNames (no such user)",
      new OID("1.3.6.1.6.3.15.1.1.4"), "usmStatsUnknownEngineIDs",
      new OID("1.3.6.1.6.3.15.1.1.5"), "usmStatsWrongDigests (wrong auth pass phrase or "
          + "protocol)",
      new OID("1.3.6.1.6.3.15.1.1.6"), "usmStatsDecryptionErrors (wrong priv pass phrase or "
          + "protocol)");

  /** Beyond timeout x tries, how long a read waits for snmp4j's own timeout to arrive. */
  private static final long ANSWER_GRACE_MS = 1_000;

  private final Snmp snmp;
  private final Target<UdpAddress> target;
  private final String agent;
  private final SnmpCredentials credentials;
  /** The read in progress, completed by snmp4j's answer or by a refusal it would drop. */
  private volatile CompletableFuture<ResponseEvent<?>> inFlight;

  private SnmpSession(Snmp snmp, Target<UdpAddress> target, String agent,
      SnmpCredentials credentials) {
    this.snmp = snmp;
    this.target = target;
    this.agent = agent;
    this.credentials = credentials;
  }

  static SnmpSession open(UdpAddress address, String agent, SnmpCredentials credentials,
      long timeoutMs, int retries) throws IOException {
    MessageDispatcherImpl dispatcher = new MessageDispatcherImpl();
    Target<UdpAddress> target;
    if (credentials instanceof SnmpCredentials.Usm usm) {
      dispatcher.addMessageProcessingModel(new MPv3(ownUsm(usm)));
      UserTarget<UdpAddress> user = new UserTarget<>();
      user.setVersion(SnmpConstants.version3);
      user.setSecurityModel(SecurityModel.SECURITY_MODEL_USM);
      user.setSecurityName(usm.user());
      user.setSecurityLevel(usm.level().getSnmpValue());
      target = user;
    } else {
      dispatcher.addMessageProcessingModel(new MPv2c());
      CommunityTarget<UdpAddress> community =
          new CommunityTarget<>(address, ((SnmpCredentials.Community) credentials).community());
      community.setVersion(SnmpConstants.version2c);
      target = community;
    }
    target.setAddress(address);
    target.setTimeout(timeoutMs);
    target.setRetries(retries);
    Snmp snmp = new Snmp(dispatcher, new DefaultUdpTransportMapping());
    SnmpSession session = new SnmpSession(snmp, target, agent, credentials);
    snmp.setReportHandler(new SnmpReportWatch(snmp.getReportHandler(),
        target.getSecurityLevel(), session::refused));
    try {
      snmp.listen();
    } catch (IOException e) {
      snmp.close();
      throw e;
    }
    return session;
  }

  private static USM ownUsm(SnmpCredentials.Usm credentials) {
    SecurityProtocols protocols =
        new SecurityProtocols(SecurityProtocols.SecurityProtocolSet.none);
    OID authId = null;
    OID privId = null;
    if (credentials.auth() != null) {
      protocols.addAuthenticationProtocol(credentials.auth());
      authId = credentials.auth().getID();
    }
    if (credentials.priv() != null) {
      protocols.addPrivacyProtocol(credentials.priv());
      privId = credentials.priv().getID();
    }
    // A command generator's own engine ID only has to be unique; random beats the host address,
    // which may not resolve on a NodeManager with odd /etc/hosts.
    byte[] nodeId = new byte[8];
    new SecureRandom().nextBytes(nodeId);
    USM usm = new USM(protocols, new OctetString(MPv3.createLocalEngineID(
        new OctetString(nodeId))), 0);
    usm.addUser(new UsmUser(credentials.user(), authId, credentials.authPassphrase(), privId,
        credentials.privPassphrase()));
    return usm;
  }

  /**
   * GETs the OIDs in one request and returns the bindings in request order. Exceptions in the
   * bindings (noSuchObject and the like) are left to the caller, which knows what they mean.
   */
  List<VariableBinding> get(List<OID> oids) throws IOException {
    PDU request = credentials instanceof SnmpCredentials.Usm ? new ScopedPDU() : new PDU();
    request.setType(PDU.GET);
    oids.forEach(oid -> request.add(new VariableBinding(oid)));
    ResponseEvent<?> event = exchange(request, oids);
    if (event.getError() != null) {
      throw new MeterException("snmp-error", "SNMP GET " + oids + " to " + agent + " failed: "
          + event.getError().getMessage(), event.getError());
    }
    PDU response = event.getResponse();
    if (response == null) {
      throw timeout(oids);
    }
    if (response.getType() == PDU.REPORT) {
      throw new MeterException("snmp-error", "SNMPv3 agent " + agent + " refused " + credentials
          + ": " + reportName(response));
    }
    if (response.getErrorStatus() != PDU.noError) {
      throw new MeterException("snmp-error", "SNMP agent " + agent + " answered "
          + response.getErrorStatusText() + " (error index " + response.getErrorIndex()
          + ") for " + oids);
    }
    List<? extends VariableBinding> bindings = response.getVariableBindings();
    if (bindings.size() != oids.size()) {
      throw new MeterException("snmp-error", "SNMP agent " + agent + " answered "
          + bindings.size() + " values for " + oids.size() + " OIDs " + oids);
    }
    return List.copyOf(bindings);
  }

  // Asynchronous send, so that a refusal snmp4j drops (refused(...)) can end the wait at once and
  // cancel the retries, instead of waiting out timeout x tries.
  private ResponseEvent<?> exchange(PDU request, List<OID> oids) throws IOException {
    CompletableFuture<ResponseEvent<?>> answer = new CompletableFuture<>();
    ResponseListener listener = new ResponseListener() {
      @Override
      public <A extends Address> void onResponse(ResponseEvent<A> event) {
        answer.complete(event);
      }
    };
    inFlight = answer;
    try {
      snmp.send(request, target, null, listener);
      long waitMs = target.getTimeout() * (target.getRetries() + 1L) + ANSWER_GRACE_MS;
      return answer.get(waitMs, TimeUnit.MILLISECONDS);
    } catch (IOException e) {
      throw new MeterException("snmp-error", "SNMP GET " + oids + " to " + agent + " failed: "
          + e.getMessage(), e);
    } catch (TimeoutException e) {
      throw timeout(oids);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted waiting for " + agent);
    } catch (ExecutionException e) {
      throw new IllegalStateException("the answer is never completed exceptionally", e);
    } finally {
      inFlight = null;
      snmp.cancel(request, listener);
    }
  }

  /** An unauthenticated USM refusal of the request in flight (see {@link SnmpReportWatch}). */
  private void refused(PDU report) {
    CompletableFuture<ResponseEvent<?>> answer = inFlight;
    if (answer != null) {
      answer.complete(new ResponseEvent<UdpAddress>(snmp, target.getAddress(), null, report, null));
    }
  }

  private MeterException timeout(List<OID> oids) {
    String causes = credentials instanceof SnmpCredentials.Usm
        ? "agent down, wrong address, an agent replaced under a new engine ID, or a wrong pass "
            + "phrase or protocol for " + credentials + " that the agent does not report (a "
            + "wrong privacy pass phrase never is)"
        : "agent down, wrong address, or a community the agent ignores";
    return new MeterException("timeout", "no SNMP answer from " + agent + " for " + oids
        + " within " + target.getTimeout() + " ms x " + (target.getRetries() + 1) + " tries ("
        + causes + ")");
  }

  private static String reportName(PDU report) {
    if (report.size() == 0) {
      return "an empty report";
    }
    OID oid = report.get(0).getOid();
    for (Map.Entry<OID, String> known : USM_REPORTS.entrySet()) {
      if (oid.startsWith(known.getKey())) {
        return known.getValue();
      }
    }
    return "report " + oid;
  }

  @Override
  public void close() throws IOException {
    snmp.close();
  }
}

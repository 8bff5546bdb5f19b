package org.fawnpack.energy.meter;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.Map;
import java.util.NavigableMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import org.snmp4j.PDU;
import org.snmp4j.MessageDispatcherImpl;
import org.snmp4j.TransportMapping;
import org.snmp4j.agent.BaseAgent;
import org.snmp4j.agent.CommandProcessor;
import org.snmp4j.agent.DefaultMOScope;
import org.snmp4j.agent.DuplicateRegistrationException;
import org.snmp4j.agent.MOScope;
import org.snmp4j.agent.ManagedObject;
import org.snmp4j.agent.mo.GenericManagedObject;
import org.snmp4j.agent.mo.snmp.SnmpCommunityMIB;
import org.snmp4j.agent.mo.snmp.SnmpNotificationMIB;
import org.snmp4j.agent.mo.snmp.SnmpTargetMIB;
import org.snmp4j.agent.mo.snmp.StorageType;
import org.snmp4j.agent.mo.snmp.VacmMIB;
import org.snmp4j.agent.request.SubRequest;
import org.snmp4j.agent.security.MutableVACM;
import org.snmp4j.mp.CounterSupport;
import org.snmp4j.mp.MPv2c;
import org.snmp4j.mp.MPv3;
import org.snmp4j.security.AuthHMAC128SHA224;
import org.snmp4j.security.AuthHMAC192SHA256;
import org.snmp4j.security.AuthHMAC256SHA384;
import org.snmp4j.security.AuthHMAC384SHA512;
import org.snmp4j.security.AuthMD5;
import org.snmp4j.security.AuthSHA;
import org.snmp4j.security.PrivAES128;
import org.snmp4j.security.PrivAES192;
import org.snmp4j.security.PrivAES256;
import org.snmp4j.security.PrivDES;
import org.snmp4j.security.SecurityLevel;
import org.snmp4j.security.SecurityModel;
import org.snmp4j.security.SecurityModels;
import org.snmp4j.security.SecurityProtocols;
import org.snmp4j.security.USM;
import org.snmp4j.security.UsmUser;
import org.snmp4j.smi.Integer32;
import org.snmp4j.smi.Null;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.OctetString;
import org.snmp4j.smi.UdpAddress;
import org.snmp4j.smi.Variable;
import org.snmp4j.smi.VariableBinding;
import org.snmp4j.transport.DefaultUdpTransportMapping;

/**
 * A real snmp4j agent on a loopback UDP port, serving whatever instance OIDs a test puts into
 * it. It answers SNMPv2c for {@link #COMMUNITY} and SNMPv3 authPriv (SHA + AES128) for
 * {@link #V3_USER} and the users of {@link #V3_PROTOCOL_USERS}; anything else it drops or
 * refuses as net-snmp's snmpd does: USM refusals go out as unauthenticated reports (see
 * {@link SnmpdLikeUsm}), without touching snmp4j's JVM-wide settings, which the meter shares.
 */
final class PduTestAgent extends BaseAgent implements AutoCloseable {
  static final String COMMUNITY = "fawn-read";
  static final String V3_USER = "fawn-meter";
  static final String V3_AUTH_PASS = "auth-pass-phrase-1";
  static final String V3_PRIV_PASS = "priv-pass-phrase-2";
  /** User name -> {auth protocol, priv protocol or null}; all use the two pass phrases above. */
  static final Map<String, OID[]> V3_PROTOCOL_USERS = Map.of(
      "md5-des", new OID[] {AuthMD5.ID, PrivDES.ID},
      "sha224-aes192", new OID[] {AuthHMAC128SHA224.ID, PrivAES192.ID},
      "sha256-aes256", new OID[] {AuthHMAC192SHA256.ID, PrivAES256.ID},
      "sha384-aes128", new OID[] {AuthHMAC256SHA384.ID, PrivAES128.ID},
      "sha512-aes256", new OID[] {AuthHMAC384SHA512.ID, PrivAES256.ID},
      "sha256-authonly", new OID[] {AuthHMAC192SHA256.ID, null});

  private static final OctetString V2C_SECURITY_NAME = new OctetString("v2c-reader");
  private static final OctetString V2C_GROUP = new OctetString("v2c-readers");
  private static final OctetString V3_GROUP = new OctetString("v3-readers");
  private static final OctetString V3_AUTH_ONLY_GROUP = new OctetString("v3-auth-only");
  private static final OctetString READ_VIEW = new OctetString("everything");
  private static final OctetString NO_VIEW = new OctetString();

  /** The engine name of {@link #start(Path)}; a PDU keeps its engine ID until it is replaced. */
  static final String DEFAULT_ENGINE = "fawn-test-agent";

  private final Map<OID, Column> columns = new ConcurrentHashMap<>();
  private final int requestedPort;
  private String address;
  private int port;

  private PduTestAgent(Path dir, int port, String engine) {
    super(new File(dir.toFile(), "engine-boots-" + engine), null,
        new CommandProcessor(new OctetString(MPv3.createLocalEngineID(
            new OctetString(engine)))));
    this.requestedPort = port;
  }

  /** Starts an agent on a free port with its boot counter in {@code dir}; it listens on return. */
  static PduTestAgent start(Path dir) throws IOException {
    return start(dir, 0, DEFAULT_ENGINE);
  }

  /**
   * Starts an agent on {@code port} (0: any free one) whose SNMPv3 engine ID derives from
   * {@code engine}, as a PDU whose network card was replaced or reset comes back on its old
   * address with a new engine ID.
   */
  static PduTestAgent start(Path dir, int port, String engine) throws IOException {
    PduTestAgent agent = new PduTestAgent(dir, port, engine);
    agent.init();
    agent.finishInit();
    agent.run();
    UdpAddress listen = (UdpAddress) agent.transportMappings[0].getListenAddress();
    agent.port = listen.getPort();
    agent.address = "127.0.0.1:" + agent.port;
    return agent;
  }

  int port() {
    return port;
  }

  /** The loopback host:port a meter's {@code address} setting should name. */
  String address() {
    return address;
  }

  /**
   * Serves {@code value} at {@code column.index}, or changes what it serves there. A GET of an
   * index never put into a served column is answered noSuchInstance by the agent itself, as on a
   * PDU without that outlet; an OID under no served column is answered noSuchObject.
   */
  PduTestAgent put(String column, String index, Variable value) {
    OID columnOid = new OID(column);
    columns.computeIfAbsent(columnOid, c -> {
      Column created = new Column(c);
      register(created);
      return created;
    }).put(new OID(columnOid).append(new OID(index)), value);
    return this;
  }

  PduTestAgent put(String column, String index, int value) {
    return put(column, index, new Integer32(value));
  }

  private void register(ManagedObject<?> object) {
    try {
      server.register(object, null);
    } catch (DuplicateRegistrationException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  protected void initTransportMappings() throws IOException {
    // Port 0: the kernel picks a free port, so parallel builds never collide.
    transportMappings = new TransportMapping<?>[] {
        new DefaultUdpTransportMapping(
            new UdpAddress(InetAddress.getLoopbackAddress(), requestedPort))};
  }

  // BaseAgent puts its USM into snmp4j's JVM-wide SecurityModels; this agent keeps its own, of
  // snmpd's kind (see SnmpdLikeUsm), so neither the meter nor a later agent shares it.
  @Override
  protected void initMessageDispatcher() {
    byte[] engineId = agent.getContextEngineID().getValue();
    SecurityProtocols protocols = SecurityProtocols.getInstance().addDefaultProtocols();
    usm = new SnmpdLikeUsm(protocols, new OctetString(engineId), updateEngineBoots());
    mpv3 = new MPv3(engineId, null, protocols,
        SecurityModels.getCollection(new SecurityModel[] {usm}), CounterSupport.getInstance());
    dispatcher = new MessageDispatcherImpl();
    dispatcher.addMessageProcessingModel(new MPv2c());
    dispatcher.addMessageProcessingModel(mpv3);
    initSnmpSession();
  }

  @Override
  protected void registerManagedObjects() {
    // Objects are registered on demand by put().
  }

  @Override
  protected void unregisterManagedObjects() {
  }

  @Override
  protected void addUsmUser(USM usm) {
    // snmp4j 3.9's default protocol set leaves out SHA-1, MD5 and DES; PDUs in the field still
    // offer them, so the agent must understand them to test the meter's use of them.
    usm.getSecurityProtocols().addAuthenticationProtocol(new AuthSHA());
    usm.getSecurityProtocols().addAuthenticationProtocol(new AuthMD5());
    usm.getSecurityProtocols().addPrivacyProtocol(new PrivDES());
    usm.addUser(new UsmUser(new OctetString(V3_USER), AuthSHA.ID,
        new OctetString(V3_AUTH_PASS), PrivAES128.ID, new OctetString(V3_PRIV_PASS)));
    V3_PROTOCOL_USERS.forEach((name, protocols) -> usm.addUser(new UsmUser(
        new OctetString(name), protocols[0], new OctetString(V3_AUTH_PASS), protocols[1],
        protocols[1] == null ? null : new OctetString(V3_PRIV_PASS))));
  }

  @Override
  protected void addNotificationTargets(SnmpTargetMIB targetMIB,
      SnmpNotificationMIB notificationMIB) {
  }

  @Override
  protected void addViews(VacmMIB vacm) {
    vacm.addGroup(SecurityModel.SECURITY_MODEL_SNMPv2c, V2C_SECURITY_NAME, V2C_GROUP,
        StorageType.volatile_);
    vacm.addGroup(SecurityModel.SECURITY_MODEL_USM, new OctetString(V3_USER), V3_GROUP,
        StorageType.volatile_);
    V3_PROTOCOL_USERS.forEach((name, protocols) -> vacm.addGroup(
        SecurityModel.SECURITY_MODEL_USM, new OctetString(name),
        protocols[1] == null ? V3_AUTH_ONLY_GROUP : V3_GROUP, StorageType.volatile_));
    vacm.addAccess(V3_AUTH_ONLY_GROUP, new OctetString(), SecurityModel.SECURITY_MODEL_USM,
        SecurityLevel.AUTH_NOPRIV, MutableVACM.VACM_MATCH_EXACT, READ_VIEW, NO_VIEW, NO_VIEW,
        StorageType.volatile_);
    vacm.addAccess(V2C_GROUP, new OctetString(), SecurityModel.SECURITY_MODEL_ANY,
        SecurityLevel.NOAUTH_NOPRIV, MutableVACM.VACM_MATCH_EXACT, READ_VIEW, NO_VIEW, NO_VIEW,
        StorageType.volatile_);
    // authPriv only: the v3 test proves encryption was negotiated, not merely allowed.
    vacm.addAccess(V3_GROUP, new OctetString(), SecurityModel.SECURITY_MODEL_USM,
        SecurityLevel.AUTH_PRIV, MutableVACM.VACM_MATCH_EXACT, READ_VIEW, NO_VIEW, NO_VIEW,
        StorageType.volatile_);
    vacm.addViewTreeFamily(READ_VIEW, new OID("1.3"), new OctetString(),
        VacmMIB.vacmViewIncluded, StorageType.volatile_);
  }

  @Override
  protected void addCommunities(SnmpCommunityMIB communityMIB) {
    communityMIB.addSnmpCommunityEntry(new OctetString("read-entry"),
        new OctetString(COMMUNITY), V2C_SECURITY_NAME, agent.getContextEngineID(),
        new OctetString(), new OctetString(), StorageType.volatile_);
  }

  @Override
  public void close() {
    if (agentState != STATE_STOPPED) {
      stop();
    }
  }

  /**
   * One read-only MIB column whose instances the test sets. Its scope is the column subtree, so
   * columns of one table coexist, and the agent's own GET/GETNEXT processing does the rest.
   */
  // GenericManagedObject, not just ManagedObject: the CommandProcessor looks objects up by it.
  private static final class Column implements GenericManagedObject {
    private final MOScope scope;
    private final NavigableMap<OID, Variable> instances = new ConcurrentSkipListMap<>();

    Column(OID column) {
      scope = new DefaultMOScope(column, false, new OID(column).nextPeer(), false);
    }

    void put(OID instance, Variable value) {
      instances.put(instance, value);
    }

    @Override
    public MOScope getScope() {
      return scope;
    }

    @Override
    public OID find(MOScope range) {
      for (OID instance : instances.tailMap(range.getLowerBound(), range.isLowerIncluded())
          .keySet()) {
        return range.covers(instance) ? instance : null;
      }
      return null;
    }

    @Override
    public void get(SubRequest<?> request) {
      VariableBinding binding = request.getVariableBinding();
      Variable value = instances.get(binding.getOid());
      binding.setVariable(value == null ? Null.noSuchInstance : (Variable) value.clone());
      request.completed();
    }

    @Override
    public boolean next(SubRequest<?> request) {
      OID instance = find(request.getScope());
      if (instance == null) {
        return false;
      }
      request.getVariableBinding().setOid(instance);
      request.getVariableBinding().setVariable((Variable) instances.get(instance).clone());
      request.completed();
      return true;
    }

    @Override
    public void prepare(SubRequest<?> request) {
      request.getStatus().setErrorStatus(PDU.notWritable);
    }

    @Override
    public void commit(SubRequest<?> request) {
    }

    @Override
    public void undo(SubRequest<?> request) {
    }

    @Override
    public void cleanup(SubRequest<?> request) {
    }
  }
}

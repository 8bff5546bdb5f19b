package org.fawnpack.kv.auth;

import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManagerFactory;
import org.apache.yetus.audience.InterfaceAudience;
import org.apache.yetus.audience.InterfaceStability;

/**
 * A node's TLS identity and what it trusts, from a key store and a trust store as Hadoop
 * configures its own (ssl-server.xml's keystore and truststore): every connection, in both
 * directions, presents the key store's certificate and accepts only a peer whose certificate
 * the trust store vouches for (mutual authentication; host names are not checked, the cluster's
 * trust store is the list of who may join). Loaded and checked once, when a node starts: a
 * missing file, a wrong password or a store without a key is an error naming the file.
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class TlsCredentials {
  private final String describe;
  private final SslContext server;
  private final SslContext client;
  private final SSLSocketFactory sockets;

  private TlsCredentials(String describe, KeyManagerFactory keys, TrustManagerFactory trust)
      throws GeneralSecurityException, IOException {
    this.describe = describe;
    this.server = SslContextBuilder.forServer(keys).trustManager(trust)
        .clientAuth(ClientAuth.REQUIRE).sslProvider(SslProvider.JDK).build();
    this.client = SslContextBuilder.forClient().keyManager(keys).trustManager(trust)
        .sslProvider(SslProvider.JDK).build();
    SSLContext blocking = SSLContext.getInstance("TLS");
    blocking.init(keys.getKeyManagers(), trust.getTrustManagers(), null);
    this.sockets = blocking.getSocketFactory();
  }

  /**
   * Reads the stores ({@code type} as {@link KeyStore#getInstance}: PKCS12 or JKS).
   *
   * @throws StoreException naming the file, which store it is and what is wrong with it
   */
  public static TlsCredentials load(Path keyStore, String keyStoreType, char[] keyStorePassword,
      Path trustStore, String trustStoreType, char[] trustStorePassword) throws StoreException {
    KeyStore keys = read(keyStore, keyStoreType, keyStorePassword, false);
    KeyStore trusted = read(trustStore, trustStoreType, trustStorePassword, true);
    try {
      if (!hasKey(keys)) {
        throw new StoreException(false, "TLS key store " + keyStore + " holds no private key"
            + " (a node presents its own certificate and key)", null);
      }
      KeyManagerFactory kmf = KeyManagerFactory.getInstance(
          KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(keys, keyStorePassword);
      TrustManagerFactory tmf = TrustManagerFactory.getInstance(
          TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(trusted);
      return new TlsCredentials(keyStore + " (trusting " + trustStore + ")", kmf, tmf);
    } catch (GeneralSecurityException | IOException e) {
      throw new StoreException(false, "TLS key store " + keyStore + ": " + e.getMessage(), e);
    }
  }

  /** A store that cannot be used, and whether it is the trust store (else the key store). */
  public static final class StoreException extends IOException {
    private static final long serialVersionUID = 1L;
    private final boolean trustStore;

    StoreException(boolean trustStore, String message, Throwable cause) {
      super(message, cause);
      this.trustStore = trustStore;
    }

    public boolean trustStore() {
      return trustStore;
    }
  }

  private static KeyStore read(Path file, String type, char[] password, boolean trustStore)
      throws StoreException {
    String what = trustStore ? "trust store" : "key store";
    if (!Files.isRegularFile(file)) {
      throw new StoreException(trustStore, "TLS " + what + " " + file + " does not exist", null);
    }
    try (InputStream in = Files.newInputStream(file)) {
      KeyStore store = KeyStore.getInstance(type);
      store.load(in, password);
      return store;
    } catch (GeneralSecurityException e) {
      throw new StoreException(trustStore, "TLS " + what + " " + file + " cannot be read as "
          + type + ": " + e.getMessage(), e);
    } catch (IOException e) {
      // KeyStore reports a wrong password as an IOException whose cause is the key failure.
      throw new StoreException(trustStore, "TLS " + what + " " + file + " cannot be read as "
          + type + " (wrong password?): " + e.getMessage(), e);
    }
  }

  private static boolean hasKey(KeyStore store) throws GeneralSecurityException {
    for (String alias : java.util.Collections.list(store.aliases())) {
      if (store.isKeyEntry(alias)) {
        return true;
      }
    }
    return false;
  }

  /** For the serving side of a connection: demands the peer's certificate. */
  @InterfaceAudience.Private
  public SslContext serverContext() {
    return server;
  }

  /** For the connecting side: presents this node's certificate. */
  @InterfaceAudience.Private
  public SslContext clientContext() {
    return client;
  }

  /** For blocking client sockets (the direct-get connections). */
  @InterfaceAudience.Private
  public SSLSocketFactory socketFactory() {
    return sockets;
  }

  @Override
  public String toString() {
    return describe;
  }
}

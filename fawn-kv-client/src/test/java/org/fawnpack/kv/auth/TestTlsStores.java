package org.fawnpack.kv.auth;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Key and trust stores made by the JDK's own keytool, for tests: a cluster certificate (the
 * key store "node.p12", trusted by "trust.p12") and a stranger's ("stranger.p12", trusted by
 * nobody), all PKCS12 under {@link #PASSWORD}.
 */
public final class TestTlsStores {
  public static final String PASSWORD = "store-pass";

  private TestTlsStores() {}

  /** Makes the stores in {@code dir} and returns the cluster's credentials. */
  public static TlsCredentials make(Path dir) throws Exception {
    keytool(dir, "-genkeypair", "-alias", "node", "-keyalg", "EC", "-groupname", "secp256r1",
        "-dname", "CN=fawn-kv-node", "-validity", "30", "-keystore", "node.p12");
    keytool(dir, "-exportcert", "-alias", "node", "-keystore", "node.p12", "-file", "node.cer");
    keytool(dir, "-importcert", "-noprompt", "-alias", "node", "-file", "node.cer",
        "-keystore", "trust.p12");
    keytool(dir, "-genkeypair", "-alias", "other", "-keyalg", "EC", "-groupname", "secp256r1",
        "-dname", "CN=stranger", "-validity", "30", "-keystore", "stranger.p12");
    return load(dir, "node.p12");
  }

  /** Credentials presenting {@code keyStore} of {@code dir}, trusting the cluster's. */
  public static TlsCredentials load(Path dir, String keyStore) throws Exception {
    return TlsCredentials.load(dir.resolve(keyStore), "PKCS12", PASSWORD.toCharArray(),
        dir.resolve("trust.p12"), "PKCS12", PASSWORD.toCharArray());
  }

  private static void keytool(Path dir, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "keytool").toString()));
    command.addAll(List.of(args));
    command.addAll(List.of("-storetype", "PKCS12", "-storepass", PASSWORD));
    Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
        .start();
    String output = new String(p.getInputStream().readAllBytes());
    assertTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, "keytool: " + output);
  }
}

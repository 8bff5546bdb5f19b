package org.fawnpack.energy.meter;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.alias.CredentialProvider;
import org.apache.hadoop.security.alias.CredentialProviderFactory;

/** A real Hadoop JCEKS credential store in a test's temporary directory. */
final class TestCredentialStore {
  private TestCredentialStore() {
  }

  /**
   * Points {@code conf} at {@code dir/meter-secrets.jceks} and stores each key/value pair there,
   * as {@code hadoop credential create KEY -provider localjceks://file/...} would.
   */
  static void store(Configuration conf, Path dir, String... keysAndValues) throws IOException {
    conf.set(CredentialProviderFactory.CREDENTIAL_PROVIDER_PATH,
        "localjceks://file" + dir.resolve("meter-secrets.jceks").toAbsolutePath());
    CredentialProvider provider = CredentialProviderFactory.getProviders(conf).get(0);
    for (int i = 0; i < keysAndValues.length; i += 2) {
      provider.createCredentialEntry(keysAndValues[i], keysAndValues[i + 1].toCharArray());
    }
    provider.flush();
  }
}

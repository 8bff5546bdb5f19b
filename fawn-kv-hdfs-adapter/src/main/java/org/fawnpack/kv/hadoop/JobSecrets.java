package org.fawnpack.kv.hadoop;

import java.io.IOException;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * Where a task, or a job's commit, finds a secret the submitter put in the job's credentials
 * (the cluster secret; a bulk load's ring key).
 *
 * <p>Under YARN the task's context carries it. Under the local job runner it may not: the runner
 * starts the job's thread before it hands the job its credentials ({@code
 * LocalJobRunner.submitJob}), and a commit or a task whose configuration is copied meanwhile
 * keeps the empty set. That race failed {@code kvload --attach} at its commit and {@code kvload
 * --puts} in a map. Local tasks run in the submitter's JVM as its user, so the submitter also
 * hands each secret to that user ({@link #shareWithLocalTasks}), where {@link #find} looks last:
 * under an alias of the job's own ({@link #LOCAL_ID}, in its configuration), so that jobs of
 * two clusters in one JVM never take each other's.
 */
final class JobSecrets {
  /** The job's name for the secrets it shares with its local tasks: random, not a secret. */
  static final String LOCAL_ID = "fawn.kv.job.local-secrets-id";

  private JobSecrets() {}

  /**
   * The secret under {@code alias}: from {@code credentials}, else the configuration's own
   * (a {@link JobConf} carries the job's), else the current user's (under YARN an application
   * master's user holds the job's), else what the job shared with its local tasks; null when
   * none has it.
   */
  static byte[] find(Text alias, Configuration conf, Credentials credentials)
      throws IOException {
    Credentials user = UserGroupInformation.getCurrentUser().getCredentials();
    for (Credentials c : new Credentials[] {credentials,
        conf instanceof JobConf job ? job.getCredentials() : null, user}) {
      if (c != null && c.getSecretKey(alias) != null) {
        return c.getSecretKey(alias);
      }
    }
    String id = conf.get(LOCAL_ID);
    return id == null ? null : user.getSecretKey(shared(alias, id));
  }

  /**
   * When {@code conf} runs its job in this JVM ({@code mapreduce.framework.name} local, the
   * default), gives the secret {@code credentials} hold under {@code alias} to the current
   * user too, under the job's {@link #LOCAL_ID} (set in {@code conf} if it has none yet), for
   * the local runner's race; under YARN nothing leaves the job's credentials.
   */
  static void shareWithLocalTasks(Text alias, Configuration conf, Credentials credentials)
      throws IOException {
    byte[] secret = credentials.getSecretKey(alias);
    if (secret == null || !MRConfig.LOCAL_FRAMEWORK_NAME.equals(
        conf.getTrimmed(MRConfig.FRAMEWORK_NAME, MRConfig.LOCAL_FRAMEWORK_NAME))) {
      return;
    }
    String id = conf.get(LOCAL_ID);
    if (id == null) {
      id = UUID.randomUUID().toString();
      conf.set(LOCAL_ID, id);
    }
    Credentials shared = new Credentials();
    shared.addSecretKey(shared(alias, id), secret);
    UserGroupInformation.getCurrentUser().addCredentials(shared);
  }

  private static Text shared(Text alias, String id) {
    return new Text(alias + "@" + id);
  }
}

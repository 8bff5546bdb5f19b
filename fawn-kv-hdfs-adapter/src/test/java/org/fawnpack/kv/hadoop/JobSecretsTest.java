package org.fawnpack.kv.hadoop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.security.Credentials;
import org.junit.jupiter.api.Test;

/**
 * Where tasks find the job's secrets. The local runner's race is reproduced by its outcome: a
 * task whose configuration and context hold an empty set of credentials (copied before the
 * runner handed the job its own).
 */
class JobSecretsTest {
  private static final byte[] SECRET = "0123456789abcdef-the-secret".getBytes(
      StandardCharsets.US_ASCII);

  /** A fresh alias per test: the current user's credentials outlive a test. */
  private static Text alias() {
    return new Text("fawn.kv.test-secret-" + UUID.randomUUID());
  }

  private static Credentials holding(Text alias) {
    Credentials credentials = new Credentials();
    credentials.addSecretKey(alias, SECRET);
    return credentials;
  }

  @Test
  void theContextsCredentialsFirst_thenTheJobConfs() throws Exception {
    Text alias = alias();
    assertArrayEquals(SECRET, JobSecrets.find(alias, new Configuration(), holding(alias)));
    JobConf job = new JobConf();
    job.setCredentials(holding(alias));
    assertArrayEquals(SECRET, JobSecrets.find(alias, job, new Credentials()));
  }

  @Test
  void localRunner_aTaskWithEmptyCredentials_findsTheSecretTheSubmitterShared() throws Exception {
    Text alias = alias();
    Configuration submitted = new Configuration();
    submitted.set(MRConfig.FRAMEWORK_NAME, MRConfig.LOCAL_FRAMEWORK_NAME);
    JobSecrets.shareWithLocalTasks(alias, submitted, holding(alias));
    JobConf task = new JobConf(submitted); // its credentials: the empty set the race leaves
    assertArrayEquals(SECRET, JobSecrets.find(alias, task, task.getCredentials()));

    Configuration otherJob = new Configuration();
    otherJob.set(MRConfig.FRAMEWORK_NAME, MRConfig.LOCAL_FRAMEWORK_NAME);
    assertNull(JobSecrets.find(alias, otherJob, new Credentials()),
        "a job that shared nothing finds nothing another job shared");
  }

  @Test
  void underYarn_nothingLeavesTheJobsCredentials() throws Exception {
    Text alias = alias();
    Configuration submitted = new Configuration();
    submitted.set(MRConfig.FRAMEWORK_NAME, MRConfig.YARN_FRAMEWORK_NAME);
    JobSecrets.shareWithLocalTasks(alias, submitted, holding(alias));
    JobConf task = new JobConf(submitted);
    assertNull(JobSecrets.find(alias, task, task.getCredentials()));
  }
}

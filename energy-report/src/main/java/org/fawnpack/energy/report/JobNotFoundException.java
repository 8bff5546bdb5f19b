package org.fawnpack.energy.report;

import java.io.IOException;

/** The JobHistory server does not know the job (HTTP 404). */
public class JobNotFoundException extends IOException {
  private static final long serialVersionUID = 1L;

  private final String jobId;
  private final String historyServer;

  public JobNotFoundException(String jobId, String historyServer, String detail) {
    super("job " + jobId + " is not known to the JobHistory server at " + historyServer
        + (detail == null || detail.isBlank() ? "" : " (" + detail + ")")
        + "; is the id right, and has the job finished and been moved to the done directory?");
    this.jobId = jobId;
    this.historyServer = historyServer;
  }

  public String jobId() {
    return jobId;
  }

  public String historyServer() {
    return historyServer;
  }
}

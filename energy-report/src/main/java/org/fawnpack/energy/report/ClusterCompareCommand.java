package org.fawnpack.energy.report;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;

/**
 * {@code fawn energy compare --cluster NAME=CONF_DIR JOB... --cluster NAME=CONF_DIR JOB...}:
 * the same jobs run on several clusters, side by side ({@link ClusterComparison}). Each
 * cluster's figures come from its own JobHistory server and history directory, as its client
 * configuration directory (a {@code HADOOP_CONF_DIR}: its {@code *-site.xml} files) names them.
 */
final class ClusterCompareCommand {
  static final String USAGE =
      "Usage: energy compare --cluster <name>=<conf dir> <jobId> [<jobId> ...]"
          + " --cluster <name>=<conf dir> <jobId> [...] ... [--html <file>]\n"
          + "  --cluster <name>=<dir>  a cluster, named for the table, and its client"
          + " configuration directory\n"
          + "                          (HADOOP_CONF_DIR: its *-site.xml name the JobHistory"
          + " server, fs.defaultFS and\n"
          + "                          fawn.energy.history.dir); the job ids after it ran"
          + " there. A job run several times:\n"
          + "                          mean ± standard deviation. At least two clusters.\n"
          + "  --html <file>           also write a page with bar charts per job";

  /** One {@code --cluster} with its jobs. */
  record ClusterArgs(String name, File confDir, List<String> jobIds) {}

  /** The command line: the clusters, and the page to write (or null). */
  record Parsed(List<ClusterArgs> clusters, String html) {}

  private final PrintStream out;
  private final PrintStream err;

  ClusterCompareCommand(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  /** {@code args} after "compare". */
  int run(String[] args) {
    List<ClusterArgs> clusters;
    String html;
    try {
      Parsed parsed = parse(args);
      clusters = parsed.clusters();
      html = parsed.html();
    } catch (IllegalArgumentException e) {
      err.println("energy compare: " + e.getMessage());
      err.println(USAGE);
      return EnergyReport.EXIT_USAGE;
    }
    List<ClusterComparison.Cluster> reports = new ArrayList<>();
    for (ClusterArgs c : clusters) {
      Configuration conf = clientConf(c.confDir());
      List<EnergyReportModel> jobs = new ArrayList<>();
      for (String jobId : c.jobIds()) {
        try {
          jobs.add(EnergyReport.report(conf, jobId, null, null));
        } catch (IOException | RuntimeException e) {
          err.println("energy compare: cluster " + c.name() + " (" + c.confDir() + "): "
              + jobId + ": " + e.getMessage());
          return EnergyReport.EXIT_ERROR;
        }
      }
      reports.add(new ClusterComparison.Cluster(c.name(), jobs));
    }
    ClusterComparison comparison = new ClusterComparison(reports);
    out.print(ClusterComparisonText.render(comparison));
    out.flush();
    if (html != null) {
      try {
        ClusterComparisonHtml.write(comparison, java.nio.file.Path.of(html));
        out.println("HTML comparison: " + html);
      } catch (IOException | RuntimeException e) {
        err.println("energy compare: cannot write " + html + ": " + e);
        return EnergyReport.EXIT_ERROR;
      }
    }
    return EnergyReport.EXIT_OK;
  }

  /**
   * A cluster's client configuration: Hadoop's defaults and the directory's {@code *-site.xml}
   * files, and nothing from this JVM's classpath (whose site files name another cluster).
   */
  static Configuration clientConf(File dir) {
    Configuration conf = new Configuration(false);
    conf.addResource("core-default.xml");
    conf.addResource("mapred-default.xml");
    File[] sites = dir.listFiles((d, name) -> name.endsWith("-site.xml"));
    Arrays.sort(sites);
    for (File site : sites) {
      conf.addResource(new org.apache.hadoop.fs.Path(site.toURI()));
    }
    return conf;
  }

  static Parsed parse(String[] args) {
    List<ClusterArgs> clusters = new ArrayList<>();
    String html = null;
    String name = null;
    File dir = null;
    List<String> jobs = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (arg.equals("--html")) {
        if (html != null || ++i >= args.length || args[i].isBlank()) {
          throw new IllegalArgumentException("--html needs one file");
        }
        html = args[i];
      } else if (arg.equals("--cluster")) {
        if (name != null) {
          clusters.add(close(name, dir, jobs));
          jobs = new ArrayList<>();
        }
        if (++i >= args.length) {
          throw new IllegalArgumentException("--cluster needs <name>=<conf dir>");
        }
        int eq = args[i].indexOf('=');
        if (eq <= 0 || eq == args[i].length() - 1) {
          throw new IllegalArgumentException("--cluster " + args[i] + ": not <name>=<conf dir>");
        }
        name = args[i].substring(0, eq);
        dir = new File(args[i].substring(eq + 1));
        if (!dir.isDirectory()) {
          throw new IllegalArgumentException("--cluster " + name + ": " + dir
              + " is not a directory");
        }
        for (ClusterArgs c : clusters) {
          if (c.name().equals(name)) {
            throw new IllegalArgumentException("cluster " + name + " given twice");
          }
        }
      } else if (arg.startsWith("-")) {
        throw new IllegalArgumentException("unknown option '" + arg + "'");
      } else if (name == null) {
        throw new IllegalArgumentException("job " + arg + " before any --cluster");
      } else if (!JobHistoryClient.isJobId(arg)) {
        throw new IllegalArgumentException("'" + arg + "' is not a job id (job_<timestamp>_<n>)");
      } else {
        jobs.add(arg);
      }
    }
    if (name != null) {
      clusters.add(close(name, dir, jobs));
    }
    if (clusters.size() < 2) {
      throw new IllegalArgumentException("give at least two --cluster, each with its jobs");
    }
    return new Parsed(List.copyOf(clusters), html);
  }

  private static ClusterArgs close(String name, File dir, List<String> jobs) {
    if (jobs.isEmpty()) {
      throw new IllegalArgumentException("cluster " + name + " has no job id");
    }
    return new ClusterArgs(name, dir, List.copyOf(jobs));
  }
}

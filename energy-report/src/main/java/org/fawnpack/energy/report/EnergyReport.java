package org.fawnpack.energy.report;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.fawnpack.energy.EnergyKeys;
import org.fawnpack.energy.report.JobHistoryClient.CounterValues;
import org.fawnpack.energy.report.JobHistoryClient.JobInfo;
import org.fawnpack.energy.report.JobHistoryClient.TaskInfo;

/**
 * {@code fawn energy report <jobId> [--html <file>] [--history-dir <dir>] [--jhs <host:port>]}:
 * a finished job's energy from its counters (JobHistory server REST API) and the energy
 * collector's history files, as text on stdout and optionally as an HTML page with a power chart
 * per node.
 *
 * <p>Exit codes: 0 printed; 1 the job is unknown, the server or a file could not be read (the
 * figures that could be computed are still printed when only history files failed); 2 bad
 * arguments (usage printed).
 */
public class EnergyReport extends Configured implements Tool {
  public static final int EXIT_OK = 0;
  public static final int EXIT_ERROR = 1;
  public static final int EXIT_USAGE = 2;

  public static final String USAGE =
      "Usage: energy report <jobId> [<jobId> ...] [--html <file>] [--json <file>]"
          + " [--history-dir <dir>] [--jhs <host:port>]\n"
          + "  <jobId>              a finished job, job_<timestamp>_<n>; several: side by side,"
          + " each optimised job to its baseline twin\n"
          + "  --html <file>        also write a self-contained HTML page (one job: a power chart"
          + " per node; several: bar charts)\n"
          + "  --json <file>        also write the figures as JSON (one job)\n"
          + "  --history-dir <dir>  the collector's history directory (default: "
          + EnergyKeys.HISTORY_DIR.name() + ", else " + EnergyKeys.HISTORY_DIR.defaultValue()
          + ")\n"
          + "  --jhs <host:port>    the JobHistory server's web address (default: "
          + JobHistoryClient.WEBAPP_ADDRESS + ", else " + JobHistoryClient.DEFAULT_WEBAPP_ADDRESS
          + ")\n"
          + "Generic options (-D key=value, -conf <file>, -fs <uri>) go before 'report'.\n"
          + ClusterCompareCommand.USAGE;

  static {
    // What JobConf would add: the JobHistory server's address lives in mapred-site.xml.
    Configuration.addDefaultResource("mapred-default.xml");
    Configuration.addDefaultResource("mapred-site.xml");
  }

  private final PrintStream out;
  private final PrintStream err;

  public EnergyReport() {
    this(System.out, System.err);
  }

  public EnergyReport(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new Configuration(), new EnergyReport(), args));
  }

  /** The parsed command line. */
  record Arguments(List<String> jobIds, String html, String json, String historyDir,
      String jhs) {
    String jobId() {
      return jobIds.get(0);
    }
  }

  @Override
  public int run(String[] args) {
    if (args.length > 0 && args[0].equals("compare")) {
      return new ClusterCompareCommand(out, err).run(Arrays.copyOfRange(args, 1, args.length));
    }
    Arguments a;
    try {
      a = parse(args);
    } catch (IllegalArgumentException e) {
      err.println("energy: " + e.getMessage());
      err.println(USAGE);
      return EXIT_USAGE;
    }
    if (a == null) {
      out.println(USAGE);
      return EXIT_OK;
    }
    Configuration conf = getConf() != null ? getConf() : new Configuration();
    if (a.jobIds().size() > 1) {
      return compare(conf, a);
    }
    EnergyReportModel model;
    try {
      model = report(conf, a.jobId(), a.historyDir(), a.jhs());
    } catch (JobNotFoundException e) {
      err.println("energy report: " + e.getMessage());
      return EXIT_ERROR;
    } catch (IOException | RuntimeException e) {
      err.println("energy report: " + a.jobId() + ": " + e.getMessage());
      return EXIT_ERROR;
    }
    out.print(TextReport.render(model));
    out.flush();
    int rc = EXIT_OK;
    if (a.html() != null) {
      try {
        HtmlReport.write(model, Path.of(a.html()));
        out.println("HTML report: " + a.html());
      } catch (IOException | RuntimeException e) {
        err.println("energy report: cannot write " + a.html() + ": " + e);
        rc = EXIT_ERROR;
      }
    }
    if (a.json() != null) {
      try {
        JsonReport.write(model, Path.of(a.json()));
        out.println("JSON report: " + a.json());
      } catch (IOException | RuntimeException e) {
        err.println("energy report: cannot write " + a.json() + ": " + e);
        rc = EXIT_ERROR;
      }
    }
    if (model.historyProblem() != null) {
      err.println("energy report: history files of " + model.applicationId()
          + " could not be read: " + model.historyProblem());
      rc = EXIT_ERROR;
    }
    return rc;
  }

  /** Several jobs side by side: a text table, and with --html a page with bar charts. */
  private int compare(Configuration conf, Arguments a) {
    List<EnergyReportModel> models = new java.util.ArrayList<>();
    for (String jobId : a.jobIds()) {
      try {
        models.add(report(conf, jobId, a.historyDir(), a.jhs()));
      } catch (JobNotFoundException e) {
        err.println("energy report: " + e.getMessage());
        return EXIT_ERROR;
      } catch (IOException | RuntimeException e) {
        err.println("energy report: " + jobId + ": " + e.getMessage());
        return EXIT_ERROR;
      }
    }
    out.print(comparisonText(models));
    out.flush();
    if (a.html() != null) {
      try {
        writeComparisonHtml(models, Path.of(a.html()));
        out.println("HTML comparison: " + a.html());
      } catch (IOException | RuntimeException e) {
        err.println("energy report: cannot write " + a.html() + ": " + e);
        return EXIT_ERROR;
      }
    }
    return EXIT_OK;
  }

  /** Several jobs' reports side by side, as a text table with ratios to the first. */
  public static String comparisonText(List<EnergyReportModel> models) {
    return ComparisonText.render(JobComparison.of(models));
  }

  /** Several jobs' reports side by side, as a self-contained HTML page with bar charts. */
  public static void writeComparisonHtml(List<EnergyReportModel> models, Path file)
      throws IOException {
    ComparisonHtml.write(JobComparison.of(models), file);
  }

  /**
   * The same jobs on several clusters (cluster name to its jobs' reports, in order), as the
   * text of {@code fawn energy compare}: seed 003's Table 8 layout, ratios to the first.
   */
  public static String clusterComparisonText(Map<String, List<EnergyReportModel>> clusters) {
    return ClusterComparisonText.render(clusterComparison(clusters));
  }

  /** The same as {@link #clusterComparisonText}, as a self-contained HTML page with charts. */
  public static void writeClusterComparisonHtml(Map<String, List<EnergyReportModel>> clusters,
      Path file) throws IOException {
    ClusterComparisonHtml.write(clusterComparison(clusters), file);
  }

  private static ClusterComparison clusterComparison(
      Map<String, List<EnergyReportModel>> clusters) {
    List<ClusterComparison.Cluster> list = new java.util.ArrayList<>();
    clusters.forEach((name, jobs) -> list.add(new ClusterComparison.Cluster(name, jobs)));
    return new ClusterComparison(list);
  }

  /** Null for help; IllegalArgumentException for anything wrong. */
  static Arguments parse(String[] args) {
    if (args.length == 0) {
      throw new IllegalArgumentException("missing command 'report'");
    }
    if (args[0].equals("-h") || args[0].equals("--help") || args[0].equals("help")) {
      return null;
    }
    if (!args[0].equals("report")) {
      throw new IllegalArgumentException("unknown command '" + args[0]
          + "' (expected 'report' or 'compare')");
    }
    List<String> jobIds = new java.util.ArrayList<>();
    String html = null;
    String json = null;
    String historyDir = null;
    String jhs = null;
    for (int i = 1; i < args.length; i++) {
      String arg = args[i];
      switch (arg) {
        case "-h", "--help" -> {
          return null;
        }
        case "--html" -> html = value(args, ++i, arg, html);
        case "--json" -> json = value(args, ++i, arg, json);
        case "--history-dir" -> historyDir = value(args, ++i, arg, historyDir);
        case "--jhs" -> jhs = value(args, ++i, arg, jhs);
        default -> {
          if (arg.startsWith("-")) {
            throw new IllegalArgumentException("unknown option '" + arg + "'");
          }
          if (!JobHistoryClient.isJobId(arg)) {
            throw new IllegalArgumentException("'" + arg + "' is not a job id"
                + " (job_<timestamp>_<n>, e.g. job_1700000000000_0001)");
          }
          if (jobIds.contains(arg)) {
            throw new IllegalArgumentException("job " + arg + " given twice");
          }
          jobIds.add(arg);
        }
      }
    }
    if (jobIds.isEmpty()) {
      throw new IllegalArgumentException("missing <jobId>");
    }
    if (jhs != null) {
      try {
        new JobHistoryClient(jhs);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--jhs: " + e.getMessage());
      }
    }
    if (json != null && jobIds.size() > 1) {
      throw new IllegalArgumentException("--json writes one job's report: give one job id");
    }
    return new Arguments(List.copyOf(jobIds), html, json, historyDir, jhs);
  }

  private static String value(String[] args, int i, String option, String previous) {
    if (previous != null) {
      throw new IllegalArgumentException(option + " given twice");
    }
    if (i >= args.length || args[i].isBlank()) {
      throw new IllegalArgumentException(option + " needs a value");
    }
    return args[i];
  }

  /**
   * The report of a finished job, with the JobHistory server and history directory the
   * configuration names. For callers in Java (tests, other tools).
   */
  public static EnergyReportModel report(Configuration conf, String jobId) throws IOException {
    return report(conf, jobId, null, null);
  }

  /**
   * The report of a finished job.
   *
   * @param historyDir the collector's history directory (any Hadoop file system URI); null for
   *     {@code fawn.energy.history.dir} from {@code conf}
   * @param jhsAddress the JobHistory server's {@code host:port} (or {@code http(s)://host:port});
   *     null for {@value JobHistoryClient#WEBAPP_ADDRESS} from {@code conf}
   * @throws JobNotFoundException if the server does not know the job
   * @throws IOException if the server cannot be asked; a history file that cannot be read does
   *     not throw but is named in {@link EnergyReportModel#historyProblem()}
   */
  public static EnergyReportModel report(Configuration conf, String jobId, String historyDir,
      String jhsAddress) throws IOException {
    if (!JobHistoryClient.isJobId(jobId)) {
      throw new IllegalArgumentException("not a job id: " + jobId);
    }
    JobHistoryClient client = jhsAddress == null ? JobHistoryClient.fromConf(conf)
        : new JobHistoryClient(jhsAddress);
    JobInfo job = client.job(jobId);
    CounterValues counters = client.counters(jobId);
    List<TaskInfo> tasks = client.tasks(jobId);
    if (job.id() != null && !job.id().equals(jobId) && JobHistoryClient.isJobId(job.id())) {
      throw new IOException("the JobHistory server at " + client.address() + " answered for "
          + job.id() + " when asked for " + jobId);
    }
    job = new JobInfo(jobId, job.name(), job.user(), job.queue(), job.state(), job.submitTime(),
        job.startTime(), job.finishTime(), job.mapsTotal(), job.mapsCompleted(),
        job.reducesTotal(), job.reducesCompleted());
    JobPhases phases = JobPhases.read(client, jobId, tasks);

    String dir = historyDir != null ? historyDir : HistoryFileReader.historyDir(conf);
    String applicationId = JobHistoryClient.applicationId(jobId);
    String location = dir + "/" + applicationId;
    EnergyReportModel model;
    try {
      org.apache.hadoop.fs.Path appDir =
          HistoryFileReader.applicationDir(conf, dir, applicationId);
      location = appDir.toString();
      Optional<List<NodeHistory>> histories = HistoryFileReader.readApplication(conf, appDir);
      model = EnergyReportModel.build(job, counters, phases, location, histories.orElse(null),
          null);
    } catch (IOException | IllegalArgumentException e) {
      model = EnergyReportModel.build(job, counters, phases, location, null, e.getMessage());
    }
    return model.withCluster(clusterFigures(conf, dir, job, model));
  }

  /** The nodes' own histories over the job's span, or why they cannot be had. */
  static ClusterFigures clusterFigures(Configuration conf, String historyDir, JobInfo job,
      EnergyReportModel model) {
    String location = historyDir + "/" + org.fawnpack.energy.NodeHistoryFormat.NODES_DIR;
    if (job.startTime() <= 0 || job.finishTime() < job.startTime()) {
      return new ClusterFigures(null, location, "the job's span is not known (start "
          + job.startTime() + ", finish " + job.finishTime() + ")");
    }
    try {
      location = org.fawnpack.energy.NodeHistoryFormat.nodesDir(conf, historyDir).toString();
      Optional<List<NodeSegmentReader.NodeSeries>> series = NodeSegmentReader.read(conf,
          historyDir, job.startTime(), job.finishTime());
      if (series.isEmpty() || series.get().isEmpty()) {
        return new ClusterFigures(null, location, "no node history in " + location
            + " (collectors write one with fawn.energy.node-history.enabled, every"
            + " fawn.energy.node-history.roll-ms)");
      }
      List<String> jobNodes = model.nodes().stream().map(n -> n.history().node()).toList();
      return new ClusterFigures(ClusterEnergy.of(series.get(), job.startTime(),
          job.finishTime(), System.currentTimeMillis(), jobNodes), location, null);
    } catch (IOException | IllegalArgumentException e) {
      return new ClusterFigures(null, location, e.getMessage());
    }
  }
}

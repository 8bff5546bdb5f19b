package org.fawnpack.energy.report;

import static org.fawnpack.energy.report.JettisonJson.list;
import static org.fawnpack.energy.report.JettisonJson.member;
import static org.fawnpack.energy.report.JettisonJson.number;
import static org.fawnpack.energy.report.JettisonJson.text;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;

/**
 * Reads a finished job from the MapReduce JobHistory server's REST API
 * ({@code /ws/v1/history/mapreduce/jobs/{jobid}}, {@code .../counters}, {@code .../tasks}).
 *
 * <p>Shapes, as Hadoop 3.5.0's server writes them (Jersey 2 + Jettison, JAXB classes
 * {@code hs.webapp.dao.JobInfo}, {@code app.webapp.dao.JobCounterInfo / CounterGroupInfo /
 * CounterInfo / TasksInfo / TaskInfo}):
 * <pre>
 * {"job":{"submitTime":..,"startTime":..,"finishTime":..,"id":"job_..","name":"..","queue":"..",
 *         "user":"..","state":"SUCCEEDED","mapsTotal":4,"mapsCompleted":4,"reducesTotal":1,
 *         "reducesCompleted":1,...}}
 * {"jobCounters":{"id":"job_..","counterGroup":[{"counterGroupName":"org.apache...TaskCounter",
 *         "counter":[{"name":"MAP_INPUT_RECORDS","totalCounterValue":..,"mapCounterValue":..,
 *         "reduceCounterValue":..}]}]}}
 * {"tasks":{"task":[{"startTime":..,"finishTime":..,"elapsedTime":..,"progress":100,
 *         "id":"task_.._m_000000","state":"SUCCEEDED","type":"MAP","successfulAttempt":"..",
 *         "status":".."}]}}
 * {"taskAttempts":{"taskAttempt":[{"startTime":..,"finishTime":..,"id":"attempt_.._r_000000_0",
 *         "state":"SUCCEEDED","type":"REDUCE","nodeHttpAddress":"..","shuffleFinishTime":..,
 *         "mergeFinishTime":..,"elapsedShuffleTime":..,...}]}}   (ReduceTaskAttemptInfo)
 * </pre>
 * Jettison writes a one-element list as the bare element and an empty list as {@code ""};
 * both are read as lists here (see {@link JettisonJson#list}).
 */
public final class JobHistoryClient {
  /** Where the JobHistory server's web application listens (Hadoop's key and default). */
  public static final String WEBAPP_ADDRESS = "mapreduce.jobhistory.webapp.address";
  public static final String DEFAULT_WEBAPP_ADDRESS = "0.0.0.0:19888";
  public static final String HTTPS_WEBAPP_ADDRESS = "mapreduce.jobhistory.webapp.https.address";
  public static final String DEFAULT_HTTPS_WEBAPP_ADDRESS = "0.0.0.0:19890";
  public static final String HTTP_POLICY = "mapreduce.jobhistory.http.policy";

  private static final Pattern JOB_ID = Pattern.compile("job_\\d+_\\d+");
  private static final Pattern REDUCE_TASK_ID = Pattern.compile("task_\\d+_\\d+_r_\\d+");
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  /** The job, as the history server summarises it. Times are epoch milliseconds (0 if unknown). */
  public record JobInfo(String id, String name, String user, String queue, String state,
      long submitTime, long startTime, long finishTime, int mapsTotal, int mapsCompleted,
      int reducesTotal, int reducesCompleted) {
  }

  /** One task (not attempt): MAP or REDUCE, with its first start and last finish. */
  public record TaskInfo(String id, String type, String state, long startTime, long finishTime) {
    public boolean isMap() {
      return "MAP".equalsIgnoreCase(type);
    }

    public boolean isReduce() {
      return "REDUCE".equalsIgnoreCase(type);
    }
  }

  /** One attempt of a task: how it ended and the NodeManager (web address) it ran on. */
  public record AttemptInfo(String id, String state, String nodeHttpAddress) {
    public boolean succeeded() {
      return "SUCCEEDED".equals(state);
    }
  }

  /** A job's counter totals by group name and counter name. */
  public static final class CounterValues {
    private final Map<String, Map<String, Long>> groups;

    public CounterValues(Map<String, Map<String, Long>> groups) {
      Map<String, Map<String, Long>> copy = new LinkedHashMap<>();
      groups.forEach((g, c) -> copy.put(g, Collections.unmodifiableMap(new LinkedHashMap<>(c))));
      this.groups = Collections.unmodifiableMap(copy);
    }

    /** The total (maps + reduces), or 0 when the job has no such counter. */
    public long get(String group, String name) {
      Map<String, Long> counters = groups.get(group);
      Long value = counters == null ? null : counters.get(name);
      return value == null ? 0 : value;
    }

    public boolean has(String group, String name) {
      Map<String, Long> counters = groups.get(group);
      return counters != null && counters.containsKey(name);
    }

    public Map<String, Map<String, Long>> groups() {
      return groups;
    }
  }

  private final URI base;
  private final String address;
  private final HttpClient http;

  /**
   * @param address {@code host:port}, or a URL {@code http(s)://host:port}; a host of
   *     {@code 0.0.0.0} (a server listening on every interface) means this host
   */
  public JobHistoryClient(String address) {
    String trimmed = address.trim();
    String scheme = "http";
    if (trimmed.startsWith("http://") || trimmed.startsWith("https://")) {
      scheme = trimmed.substring(0, trimmed.indexOf(':'));
      trimmed = trimmed.substring(scheme.length() + 3);
    }
    while (trimmed.endsWith("/")) {
      trimmed = trimmed.substring(0, trimmed.length() - 1);
    }
    if (trimmed.isEmpty() || trimmed.contains("/")) {
      throw new IllegalArgumentException("not a host:port: " + address);
    }
    if (trimmed.startsWith("0.0.0.0")) {
      trimmed = localHostName() + trimmed.substring("0.0.0.0".length());
    }
    this.address = scheme.equals("http") ? trimmed : scheme + "://" + trimmed;
    this.base = URI.create(scheme + "://" + trimmed + "/ws/v1/history/mapreduce/jobs/");
    this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(TIMEOUT)
        .followRedirects(HttpClient.Redirect.NORMAL).build();
  }

  /** The server named by the configuration ({@value #WEBAPP_ADDRESS}, or the HTTPS one). */
  public static JobHistoryClient fromConf(Configuration conf) {
    return new JobHistoryClient(addressFromConf(conf));
  }

  /** {@code host:port} (or {@code https://host:port} when the server is HTTPS only). */
  public static String addressFromConf(Configuration conf) {
    if ("HTTPS_ONLY".equalsIgnoreCase(conf.getTrimmed(HTTP_POLICY, "HTTP_ONLY"))) {
      return "https://" + conf.getTrimmed(HTTPS_WEBAPP_ADDRESS, DEFAULT_HTTPS_WEBAPP_ADDRESS);
    }
    return conf.getTrimmed(WEBAPP_ADDRESS, DEFAULT_WEBAPP_ADDRESS);
  }

  /** The server as it was named to the user: {@code host:port}. */
  public String address() {
    return address;
  }

  public static boolean isJobId(String jobId) {
    return jobId != null && JOB_ID.matcher(jobId).matches();
  }

  /** {@code job_<ts>_<n>} → {@code application_<ts>_<n>}. */
  public static String applicationId(String jobId) {
    if (!isJobId(jobId)) {
      throw new IllegalArgumentException("not a job id: " + jobId);
    }
    return "application_" + jobId.substring("job_".length());
  }

  public JobInfo job(String jobId) throws IOException {
    JobInfo job = jobFrom(get(jobId, ""));
    if (job == null) {
      throw new IOException("the JobHistory server at " + address + " sent no 'job' object for "
          + jobId);
    }
    return job.id() == null ? new JobInfo(jobId, job.name(), job.user(), job.queue(),
        job.state(), job.submitTime(), job.startTime(), job.finishTime(), job.mapsTotal(),
        job.mapsCompleted(), job.reducesTotal(), job.reducesCompleted()) : job;
  }

  public CounterValues counters(String jobId) throws IOException {
    CounterValues counters = countersFrom(get(jobId, "/counters"));
    if (counters == null) {
      throw new IOException("the JobHistory server at " + address
          + " sent no 'jobCounters' object for " + jobId);
    }
    return counters;
  }

  public List<TaskInfo> tasks(String jobId) throws IOException {
    return tasksFrom(get(jobId, "/tasks"));
  }

  /** Whether the job ran as an uber job (its tasks inside the ApplicationMaster). */
  public boolean uberized(String jobId) throws IOException {
    return "true".equals(text(member(get(jobId, ""), "job"), "uberized"));
  }

  /** One task's counters (its successful attempt's), by group and name. */
  public CounterValues taskCounters(String jobId, String taskId) throws IOException {
    Map<String, Map<String, Long>> groups = new LinkedHashMap<>();
    JsonNode counters = member(get(jobId, "/tasks/" + taskId + "/counters"), "jobTaskCounters");
    for (JsonNode group : list(counters, "taskCounterGroup")) {
      Map<String, Long> values = groups.computeIfAbsent(text(group, "counterGroupName"),
          g -> new LinkedHashMap<>());
      for (JsonNode counter : list(group, "counter")) {
        values.put(text(counter, "name"), number(counter, "value", 0));
      }
    }
    return new CounterValues(groups);
  }

  /** Every attempt of one task. */
  public List<AttemptInfo> taskAttempts(String jobId, String taskId) throws IOException {
    List<AttemptInfo> attempts = new ArrayList<>();
    JsonNode root = member(get(jobId, "/tasks/" + taskId + "/attempts"), "taskAttempts");
    for (JsonNode attempt : list(root, "taskAttempt")) {
      attempts.add(new AttemptInfo(text(attempt, "id"), text(attempt, "state"),
          text(attempt, "nodeHttpAddress")));
    }
    return attempts;
  }

  /**
   * Every attempt of one reduce task with its shuffle and merge finish times (for the shuffle
   * phase, {@link JobPhases}); only reduce tasks, whose attempts carry those times.
   */
  public List<ReduceAttempt> reduceAttempts(String jobId, String taskId) throws IOException {
    if (taskId == null || !REDUCE_TASK_ID.matcher(taskId).matches()) {
      throw new IllegalArgumentException("not a reduce task id: " + taskId);
    }
    return ReduceAttempt.listFrom(get(jobId, "/tasks/" + taskId + "/attempts"));
  }

  /** The web addresses of the NodeManagers the job's ApplicationMaster attempts ran on. */
  public List<String> applicationMasterNodes(String jobId) throws IOException {
    List<String> nodes = new ArrayList<>();
    for (JsonNode attempt : list(member(get(jobId, "/jobattempts"), "jobAttempts"),
        "jobAttempt")) {
      nodes.add(text(attempt, "nodeHttpAddress"));
    }
    return nodes;
  }

  /** {@code {"job":{...}}}; null if there is no job object. */
  static JobInfo jobFrom(JsonNode root) {
    JsonNode job = member(root, "job");
    if (job == null || !job.isObject()) {
      return null;
    }
    return new JobInfo(text(job, "id"), text(job, "name"), text(job, "user"), text(job, "queue"),
        text(job, "state"), number(job, "submitTime", 0), number(job, "startTime", 0),
        number(job, "finishTime", 0), (int) number(job, "mapsTotal", -1),
        (int) number(job, "mapsCompleted", -1), (int) number(job, "reducesTotal", -1),
        (int) number(job, "reducesCompleted", -1));
  }

  /** {@code {"jobCounters":{"counterGroup":[...]}}}; null if there is no jobCounters member. */
  static CounterValues countersFrom(JsonNode root) {
    JsonNode jobCounters = member(root, "jobCounters");
    if (jobCounters == null) {
      return null;
    }
    Map<String, Map<String, Long>> groups = new LinkedHashMap<>();
    for (JsonNode group : list(jobCounters, "counterGroup")) {
      String groupName = text(group, "counterGroupName");
      if (groupName == null) {
        continue;
      }
      Map<String, Long> values = groups.computeIfAbsent(groupName, g -> new LinkedHashMap<>());
      for (JsonNode counter : list(group, "counter")) {
        String name = text(counter, "name");
        if (name != null) {
          values.put(name, number(counter, "totalCounterValue",
              number(counter, "mapCounterValue", 0)
                  + number(counter, "reduceCounterValue", 0)));
        }
      }
    }
    return new CounterValues(groups);
  }

  /** {@code {"tasks":{"task":[...]}}} (or a bare task object, or {@code ""} for none). */
  static List<TaskInfo> tasksFrom(JsonNode root) {
    JsonNode tasks = member(root, "tasks");
    List<TaskInfo> result = new ArrayList<>();
    for (JsonNode task : list(tasks, "task")) {
      result.add(new TaskInfo(text(task, "id"), text(task, "type"),
          text(task, "state"), number(task, "startTime", 0),
          number(task, "finishTime", 0)));
    }
    return result;
  }

  private JsonNode get(String jobId, String suffix) throws IOException {
    if (!isJobId(jobId)) {
      throw new IllegalArgumentException("not a job id: " + jobId);
    }
    URI uri = base.resolve(jobId + suffix);
    HttpRequest request = HttpRequest.newBuilder(uri).timeout(TIMEOUT)
        .header("Accept", "application/json").GET().build();
    HttpResponse<String> response;
    try {
      response = http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    } catch (ConnectException e) {
      throw new IOException("cannot reach the JobHistory server at " + address + " (" + uri
          + "): connection refused; is it running? (set " + WEBAPP_ADDRESS + " or --jhs)", e);
    } catch (HttpTimeoutException e) {
      throw new IOException("the JobHistory server at " + address + " did not answer " + uri
          + " within " + TIMEOUT.toSeconds() + " s", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while asking " + uri, e);
    } catch (IOException e) {
      throw new IOException("cannot read " + uri + " from the JobHistory server at " + address
          + ": " + e, e);
    }
    int status = response.statusCode();
    if (status == 404) {
      throw new JobNotFoundException(jobId, address, remoteMessage(response.body()));
    }
    if (status != 200) {
      String detail = remoteMessage(response.body());
      throw new IOException("the JobHistory server at " + address + " answered " + uri + " with HTTP "
          + status + (detail == null ? "" : ": " + detail));
    }
    try {
      return JettisonJson.parse(response.body());
    } catch (IOException e) {
      throw new IOException("the JobHistory server at " + address + " sent unreadable JSON for "
          + uri + ": " + e.getMessage(), e);
    }
  }

  /** The message of a {@code {"RemoteException":{...,"message":".."}}} body, if it is one. */
  private static String remoteMessage(String body) {
    if (body == null || body.isBlank()) {
      return null;
    }
    try {
      JsonNode remote = member(JettisonJson.parse(body), "RemoteException");
      String message = text(remote, "message");
      if (message != null) {
        return message;
      }
    } catch (IOException notJson) {
      // an HTML error page: say nothing more
    }
    return null;
  }

  static String localHostName() {
    try {
      return InetAddress.getLocalHost().getCanonicalHostName().toLowerCase(Locale.ROOT);
    } catch (UnknownHostException e) {
      return "localhost";
    }
  }
}

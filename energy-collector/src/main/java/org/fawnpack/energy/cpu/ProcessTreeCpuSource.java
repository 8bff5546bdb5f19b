package org.fawnpack.energy.cpu;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.StringUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cumulative CPU time of each YARN container, read from the kernel.
 *
 * <p>A container's root process is found from the pid file the NodeManager writes (see
 * {@link ContainerPidFiles}) and remembered with its start time. Then, per call:
 * <ul>
 *   <li>if the root sits in a cgroup named after the container (YARN with cgroups), that cgroup's
 *       counter: v2 {@code cpu.stat usage_usec}, v1 {@code cpuacct.usage};</li>
 *   <li>otherwise utime+stime+cutime+cstime of the root and all its live descendants, from one
 *       scan of {@code /proc} shared by every container (skipped when all use cgroups).</li>
 * </ul>
 * A container whose pid file is missing or whose root process has exited is absent from the
 * result. Values never go down: when a descendant exits without being waited for by a process in
 * the tree, its time leaves the sum, and the loss is carried as an offset rather than handed to
 * the caller as negative CPU.
 *
 * <p>Never throws from {@link #cumulativeCpuNanos}; each kind of problem is logged once. Meant
 * for one sampler thread; calls are serialised.
 */
public final class ProcessTreeCpuSource implements ContainerCpuSource {
  private static final Logger LOG = LoggerFactory.getLogger(ProcessTreeCpuSource.class);

  /** The NodeManager's local dirs, where its pid files live under {@code nmPrivate}. */
  public static final String LOCAL_DIRS_KEY = "yarn.nodemanager.local-dirs";
  /** As in yarn-default.xml; a bare Configuration does not load that file. */
  public static final String DEFAULT_LOCAL_DIRS = "${hadoop.tmp.dir}/nm-local-dir";
  /** Where YARN's cgroups handler finds (or mounts) cgroups, when set. */
  public static final String CGROUP_MOUNT_PATH_KEY =
      "yarn.nodemanager.linux-container-executor.cgroups.mount-path";
  public static final Path DEFAULT_PROC_ROOT = Path.of("/proc");
  public static final Path DEFAULT_CGROUP_ROOT = Path.of("/sys/fs/cgroup");
  /** USER_HZ: what {@code getconf CLK_TCK} prints on Linux x86 and ARM. */
  public static final long DEFAULT_CLOCK_TICKS_PER_SECOND = 100;

  // A pid file may be written a moment before the launcher joins the container's cgroup, so a
  // container first seen outside one is looked at again on a few more calls.
  private static final int CGROUP_RECHECKS = 3;
  private static final long NANOS_PER_SECOND = 1_000_000_000L;
  // Results of reading one container besides a CPU time.
  private static final long GONE = -1;
  private static final long UNKNOWN_NOW = -2;

  private final Path procRoot;
  private final String procRootName;
  private final Path cgroupRoot;
  private final long clockTicksPerSecond;
  private final ContainerPidFiles pidFiles;
  private final SmallFileReader reader = new SmallFileReader();
  private final OncePerCause logged = new OncePerCause();
  private final Map<String, Tracked> tracked = new HashMap<>();
  private int lastTableSize = -1;

  /** Like the four-argument constructor with 100 clock ticks per second. */
  public ProcessTreeCpuSource(Path procRoot, Path cgroupRoot, List<Path> localDirs) {
    this(procRoot, cgroupRoot, localDirs, DEFAULT_CLOCK_TICKS_PER_SECOND);
  }

  /**
   * @param procRoot {@code /proc}, or a fake tree in tests
   * @param cgroupRoot where cgroup hierarchies are mounted, normally {@code /sys/fs/cgroup}
   * @param localDirs the NodeManager's local dirs ({@code yarn.nodemanager.local-dirs})
   * @param clockTicksPerSecond the unit of {@code /proc/<pid>/stat} times ({@code getconf CLK_TCK})
   */
  public ProcessTreeCpuSource(Path procRoot, Path cgroupRoot, List<Path> localDirs,
      long clockTicksPerSecond) {
    if (clockTicksPerSecond <= 0) {
      throw new IllegalArgumentException("clock ticks per second must be positive, was "
          + clockTicksPerSecond);
    }
    this.procRoot = procRoot;
    this.procRootName = procRoot.toString();
    this.cgroupRoot = cgroupRoot;
    this.clockTicksPerSecond = clockTicksPerSecond;
    this.pidFiles = new ContainerPidFiles(List.copyOf(localDirs));
  }

  /**
   * A source for this NodeManager: the real {@code /proc}, the cgroup mount path YARN is
   * configured with (else {@code /sys/fs/cgroup}), and {@code yarn.nodemanager.local-dirs}.
   */
  public static ProcessTreeCpuSource fromConfiguration(Configuration conf) {
    String cgroupMount = conf.getTrimmed(CGROUP_MOUNT_PATH_KEY);
    Path cgroupRoot = cgroupMount == null || cgroupMount.isEmpty()
        ? DEFAULT_CGROUP_ROOT : Path.of(cgroupMount);
    return new ProcessTreeCpuSource(DEFAULT_PROC_ROOT, cgroupRoot, localDirs(conf));
  }

  /**
   * The NodeManager's local dirs: comma-separated, trimmed, variables resolved (also in the
   * default), {@code file://} URIs turned into paths.
   */
  public static List<Path> localDirs(Configuration conf) {
    // get(key, default) substitutes ${...} in the default too; getTrimmedStrings would not.
    String value = conf.get(LOCAL_DIRS_KEY, DEFAULT_LOCAL_DIRS);
    List<Path> dirs = new ArrayList<>();
    for (String dir : StringUtils.getTrimmedStrings(value)) {
      if (!dir.isEmpty()) {
        dirs.add(dir.startsWith("file:") ? fileUriPath(dir) : Path.of(dir));
      }
    }
    return dirs;
  }

  private static Path fileUriPath(String uri) {
    try {
      return Path.of(URI.create(uri).getPath());
    } catch (IllegalArgumentException e) {
      return Path.of(uri.substring("file:".length())); // not a valid URI, e.g. a raw space
    }
  }

  @Override
  public synchronized Map<String, Long> cumulativeCpuNanos(
      Collection<ContainerProcessKey> containers) {
    Map<String, Long> result = new HashMap<>();
    try {
      collect(containers, result);
    } catch (RuntimeException e) {
      warnOnce("unexpected", "Container CPU times could not be read; containers fall back to "
          + "attribution by vcores", e);
    }
    return result;
  }

  /** Processes in the last {@code /proc} scan, or -1 if none was needed yet. */
  synchronized int lastScanSize() {
    return lastTableSize;
  }

  private void collect(Collection<ContainerProcessKey> containers, Map<String, Long> result) {
    Set<String> wanted = new HashSet<>();
    for (ContainerProcessKey key : containers) {
      wanted.add(key.containerId());
    }
    tracked.keySet().retainAll(wanted); // forget finished containers

    boolean needTable = false;
    for (ContainerProcessKey key : containers) {
      Tracked container = tracked.computeIfAbsent(key.containerId(), id -> new Tracked());
      if (container.pid < 0) {
        resolve(key, container);
      } else if (container.counter == null && container.cgroupRechecks > 0) {
        container.cgroupRechecks--;
        container.counter = locateCgroup(key.containerId(), container.pid);
      }
      needTable |= container.pid > 0 && container.counter == null;
    }
    ProcessCpuTable table = needTable ? scan() : null;

    for (ContainerProcessKey key : containers) {
      Tracked container = tracked.get(key.containerId());
      if (container.pid < 0) {
        continue;
      }
      long nanos;
      if (container.counter != null) {
        nanos = readCgroup(key.containerId(), container);
      } else if (table == null) {
        continue; // /proc unreadable this time: absent, but not known to be gone
      } else if (table.isAlive(container.pid, container.startTime)) {
        nanos = ticksToNanos(table.treeTicks(container.pid));
      } else {
        nanos = GONE;
      }
      if (nanos == GONE) {
        LOG.debug("Container {}: root process {} has exited", key.containerId(), container.pid);
        container.deadPid = container.pid;
        container.pid = -1; // a relaunched container writes a new pid file: look again
        continue;
      }
      if (nanos >= 0) {
        result.put(key.containerId(), container.monotonic(nanos));
      }
    }
  }

  /** Reads the pid file and, if its process is alive, remembers it and how to count its CPU. */
  private void resolve(ContainerProcessKey key, Tracked container) {
    int pid;
    try {
      pid = pidFiles.find(key);
    } catch (IOException e) {
      warnOnce("pid-file", "A container pid file under nmPrivate could not be read", e);
      return;
    }
    if (pid <= 0 || pid == container.deadPid) {
      return;
    }
    ProcessCpuStat stat = readStat(pid);
    if (stat == null) {
      return;
    }
    container.pid = pid;
    container.startTime = stat.startTime();
    container.cgroupRechecks = CGROUP_RECHECKS;
    container.counter = locateCgroup(key.containerId(), pid);
    LOG.debug("Container {}: root process {}, CPU from {}", key.containerId(), pid,
        container.counter == null ? "its process tree" : "cgroup counter " + container.counter);
  }

  private CgroupCpuCounter locateCgroup(String containerId, int pid) {
    try {
      Optional<CgroupCpuCounter> counter =
          CgroupCpuCounter.locate(procRoot, cgroupRoot, pid, containerId, reader);
      return counter.orElse(null);
    } catch (IOException e) {
      // Usually the process exiting while its cgroup file is read; the tree read finds it gone.
      if (logged.first("cgroup-membership")) {
        LOG.debug("Could not read {}/{}/cgroup; counting the process tree: {}", procRootName, pid,
            e.toString());
      }
      return null;
    }
  }

  /** The cgroup counter while the root process lives; GONE once it has exited. */
  private long readCgroup(String containerId, Tracked container) {
    ProcessCpuStat stat = readStat(container.pid);
    if (stat == null || stat.startTime() != container.startTime) {
      return GONE;
    }
    long nanos;
    try {
      nanos = container.counter.readNanos(reader);
    } catch (IOException e) {
      nanos = -1;
    }
    if (nanos < 0) {
      warnOnce("cgroup-counter", "A container's cgroup CPU counter (" + container.counter
          + ") became unreadable while its process runs; counting its process tree instead",
          null);
      LOG.debug("Container {}: cgroup counter {} unreadable", containerId, container.counter);
      container.counter = null;
      container.cgroupRechecks = 0;
      return UNKNOWN_NOW; // absent this time; the next call uses the process tree
    }
    return nanos;
  }

  private ProcessCpuTable scan() {
    try {
      ProcessCpuTable table = ProcessCpuTable.scan(procRootName, reader);
      lastTableSize = table.size();
      return table;
    } catch (IOException e) {
      warnOnce("proc-list", "Could not list " + procRootName + "; container CPU times unknown", e);
      return null;
    }
  }

  private ProcessCpuStat readStat(int pid) {
    try {
      int length = reader.read(procRootName + "/" + pid + "/stat");
      return length > 0 ? ProcessCpuStat.parse(reader.buffer(), length) : null;
    } catch (IOException e) {
      return null; // exited while being read
    }
  }

  private long ticksToNanos(long ticks) {
    // Split so that ticks * 1e9 cannot overflow whatever the tick rate.
    return ticks / clockTicksPerSecond * NANOS_PER_SECOND
        + ticks % clockTicksPerSecond * NANOS_PER_SECOND / clockTicksPerSecond;
  }

  private void warnOnce(String cause, String message, Throwable e) {
    if (logged.first(cause)) {
      if (e == null) {
        LOG.warn(message);
      } else {
        LOG.warn("{}: {}", message, e.toString());
      }
    }
  }

  /** What is known about one container between calls. */
  private static final class Tracked {
    int pid = -1;
    int deadPid = -1;
    long startTime;
    CgroupCpuCounter counter; // null: sum the process tree
    int cgroupRechecks;
    long lastNanos = -1;
    long offsetNanos;

    long monotonic(long nanos) {
      long value = nanos + offsetNanos;
      if (value < lastNanos) {
        offsetNanos += lastNanos - value;
        value = lastNanos;
      }
      lastNanos = value;
      return value;
    }
  }
}
